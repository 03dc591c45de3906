#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# libsmartcols.a for the static rtla of "make bundle": Debian ships only the
# shared library, so this builds the static one alone from bookworm's
# util-linux source, for the compiler the build uses, and caches it.
#
#   scripts/static-smartcols.sh CC HOST-TRIPLET
#
# Prints the folder that holds libsmartcols.a:
# ${RTLA_CROSS_CACHE:-/var/cache/rtla-cross}/smartcols/VERSION-TRIPLET.  The
# source comes through apt with a private state (scripts/apt-private.sh);
# the machine's apt and dpkg are not touched.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=apt-private.sh
. "$HERE/apt-private.sh"

die() { printf 'rtla bundle: %s\n' "$*" >&2; exit 1; }
log() { printf 'rtla bundle: %s\n' "$*" >&2; }

(($# == 2)) || die "usage: $0 CC HOST-TRIPLET"
cc=$1 host=$2
CACHE=${RTLA_CROSS_CACHE:-/var/cache/rtla-cross}/smartcols
mkdir -p "$CACHE" 2>/dev/null || die "cannot create the cache folder $CACHE (set RTLA_CROSS_CACHE)"
exec 9>"$CACHE/.lock"
flock 9

# A built library of any version for this triplet is used as it is.
for d in "$CACHE"/*-"$host"; do
	if [[ -f $d/libsmartcols.a ]]; then
		echo "$d"
		exit 0
	fi
done
for tool in apt-get dpkg-source make; do
	command -v "$tool" >/dev/null || die "needs '$tool', which is not installed (dpkg-dev, make)"
done

APT=$CACHE/apt
mkdir -p "$APT/state/lists/partial" "$APT/cache" "$APT/empty" "$CACHE/src"
: >"$APT/state/status"
found=$(find_archive) || die "no Debian archive for bookworm in the apt sources; name one with RTLA_VM_MIRROR=URI"
read -r archive keyring <<<"${RTLA_VM_MIRROR:-$found}"
signed=""
[[ ${keyring:--} != - ]] && signed="[signed-by=$keyring] "
echo "deb-src ${signed}$archive bookworm main" >"$APT/sources.list"
private_apt_conf "$APT" "$CACHE/src" amd64 >"$APT/apt.conf"
export APT_CONFIG=$APT/apt.conf
log "fetching util-linux's source (private apt state in $APT)"
apt-get -q update >"$APT/update.log" 2>&1 || { cat "$APT/update.log" >&2; die "apt-get update failed"; }

work=$CACHE/.work-$host
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
(cd "$CACHE/src" && apt-get -q source --download-only util-linux >"$APT/source.log" 2>&1) ||
	{ cat "$APT/source.log" >&2; die "could not download util-linux's source"; }
dsc=$(find "$CACHE/src" -name 'util-linux_*.dsc' | sort -V | tail -n1)
[[ -n $dsc ]] || die "apt-get source left no util-linux .dsc"
version=${dsc##*/util-linux_}
version=${version%.dsc}
dpkg-source --no-check -x "$dsc" "$work/src" >/dev/null

log "building libsmartcols.a $version for $host"
cd "$work/src"
# Debian's patches leave the autotools inputs newer than their outputs; the
# outputs are current, so autoreconf (not needed, maybe not installed) is kept out.
touch aclocal.m4
find . \( -name Makefile.in -o -name configure -o -name config.h.in \) -exec touch {} +
# Only the library: no programs, no other library, nothing shared.
./configure -q --host="$host" CC="$cc" CFLAGS="-O2" \
	--disable-all-programs --enable-libsmartcols --enable-static --disable-shared \
	--without-python --without-systemd --without-udev --without-ncursesw \
	--disable-nls --disable-asciidoc --disable-poman >"$work/configure.log" 2>&1 ||
	{ tail -n 30 "$work/configure.log" >&2; die "util-linux's configure failed"; }
make -j"$(nproc)" libsmartcols.la >"$work/make.log" 2>&1 ||
	{ tail -n 30 "$work/make.log" >&2; die "building libsmartcols.a failed"; }
out=$CACHE/$version-$host
mkdir -p "$out.tmp"
cp .libs/libsmartcols.a "$out.tmp/"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
