#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The sysroot of a cross build: Debian bookworm's -dev packages of rtla's
# libraries for another architecture, with their run-time closure, unpacked
# into a folder the cross compiler is pointed at (--sysroot) and pkg-config
# reads (PKG_CONFIG_SYSROOT_DIR, PKG_CONFIG_LIBDIR).
#
#   scripts/cross-sysroot.sh [--refresh] ARCH      ARCH: arm64 or riscv64
#
# The cache is ${RTLA_CROSS_CACHE:-/var/cache/rtla-cross}/ARCH: sysroot is a
# link to sysroot-HASH, HASH naming the exact package versions, so a new
# set of versions unpacks beside the old one and is switched to at once.  A
# filled cache is used as it is, silently and without the network; --refresh
# resolves the versions again.  The packages come through apt with a private
# state (scripts/apt-private.sh): the machine's apt and dpkg are not touched.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=apt-private.sh
. "$HERE/apt-private.sh"

die() { printf 'rtla cross: %s\n' "$*" >&2; exit 1; }
log() { printf 'rtla cross: %s\n' "$*" >&2; }

refresh=0 arch=""
for a; do
	case $a in
	--refresh) refresh=1 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) die "unknown option: $a" ;;
	*) arch=$a ;;
	esac
done
case $arch in
arm64) triplet=aarch64-linux-gnu ;;
riscv64) triplet=riscv64-linux-gnu ;;
*) die "architecture: '${arch}' (arm64 or riscv64)" ;;
esac

CACHE=${RTLA_CROSS_CACHE:-/var/cache/rtla-cross}/$arch
# Bookworm's -dev packages of the libraries rtla links (the Makefile's PKGS)
# and of the BPF reader of rtla mdwe; apt adds their closure.
DEV="libc6-dev linux-libc-dev libtracefs-dev libtraceevent-dev libproc2-dev libncurses-dev
libcap-dev libsmartcols-dev zlib1g-dev libbpf-dev libelf-dev"
SUITE=bookworm
[[ $arch == riscv64 ]] && SUITE=trixie    # bookworm has no riscv64

ready() { [[ -f $CACHE/ready && -d $CACHE/sysroot/usr/include ]]; }
if ((!refresh)) && ready; then
	exit 0
fi
for tool in apt-get apt-config dpkg-deb flock sha256sum realpath; do
	command -v "$tool" >/dev/null || die "needs '$tool', which is not installed"
done
mkdir -p "$CACHE" 2>/dev/null || die "cannot create the cache folder $CACHE (set RTLA_CROSS_CACHE)"
exec 9>"$CACHE/.lock"
flock 9
if ((!refresh)) && ready; then
	exit 0
fi

APT=$CACHE/apt DEBS=$CACHE/debs
mkdir -p "$APT/state/lists/partial" "$APT/cache" "$APT/empty" "$DEBS/partial"
: >"$APT/state/status"
if [[ -n ${RTLA_VM_MIRROR:-} ]]; then
	archive=$RTLA_VM_MIRROR keyring=-
else
	found=$(find_archive) || die "no Debian archive for bookworm or trixie in /etc/apt/sources.list or /etc/apt/sources.list.d/; name one with RTLA_VM_MIRROR=URI"
	read -r archive keyring <<<"$found"
fi
signed=""
[[ $keyring != - ]] && signed="[signed-by=$keyring] "
{
	echo "deb ${signed}$archive $SUITE main"
	# util-linux's source, for the static libsmartcols (scripts/static-libs.sh)
	echo "deb-src ${signed}$archive $SUITE main"
} >"$APT/sources.list"
{
	private_apt_conf "$APT" "$DEBS" "$arch"
	echo "APT::Default-Release \"$SUITE\";"
} >"$APT/apt.conf"
export APT_CONFIG=$APT/apt.conf

log "apt-get update ($arch, private state in $APT)"
if ! apt-get -q update >"$APT/update.log" 2>&1 || grep -qE '^(E|W): ' "$APT/update.log"; then
	cat "$APT/update.log" >&2
	die "apt-get update against $archive failed"
fi

# The closure, as apt would install it on an empty $arch system: "name version".
# shellcheck disable=SC2086 # DEV is a list
sim=$(apt-get -s -q install --no-install-recommends $DEV 2>&1) || {
	printf '%s\n' "$sim" | grep -E '^(E:|  )' >&2
	die "apt cannot resolve the $arch -dev packages of $SUITE"
}
mapfile -t pkgs < <(sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1 \2/p' <<<"$sim" | sort)
((${#pkgs[@]})) || die "apt resolved no packages for $DEV"
hash=$(printf '%s\n' "${pkgs[@]}" | sha256sum | cut -c1-12)
ROOT=$CACHE/sysroot-$hash

if [[ ! -f $ROOT/.complete ]]; then
	rm -rf "$ROOT"
	mkdir -p "$ROOT"
	for p in "${pkgs[@]}"; do
		read -r name v <<<"$p"
		debs=("$DEBS/${name}_${v//:/%3a}_"*.deb)
		file=${debs[0]}
		if [[ ! -f $file ]]; then
			(cd "$DEBS" && apt-get -q download "$name=$v" >"$APT/download.log" 2>&1) || {
				cat "$APT/download.log" >&2
				die "could not download the $arch package $name $v"
			}
			debs=("$DEBS/${name}_${v//:/%3a}_"*.deb)
			file=${debs[0]}
			[[ -f $file ]] || die "apt-get download $name=$v left no .deb"
		fi
		dpkg-deb -x "$file" "$ROOT"
	done
	# Absolute links point into the build machine's own root: make them
	# relative, or libproc2.so dangles and ld silently takes libproc2.a.
	while IFS= read -r -d '' link; do
		target=$(readlink "$link")
		[[ $target == /* ]] || continue
		ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$ROOT$target")" "$link"
	done < <(find "$ROOT" -type l -print0)
	# A merged-/usr suite (trixie) ships /lib's files under /usr/lib and
	# leaves the /lib link to base-files, which is not unpacked: libc.so's
	# linker script names /lib/TRIPLET/libc.so.6.
	for d in lib bin sbin; do
		if [[ ! -e $ROOT/$d && -d $ROOT/usr/$d ]]; then ln -s "usr/$d" "$ROOT/$d"; fi
	done
	printf '%s\n' "${pkgs[@]}" >"$ROOT/.packages"
	touch "$ROOT/.complete"
	log "sysroot: $ROOT (${#pkgs[@]} packages, $(du -sh "$ROOT" | cut -f1))"
fi
ln -sfn "sysroot-$hash" "$CACHE/sysroot.new"
mv -T "$CACHE/sysroot.new" "$CACHE/sysroot"
{
	echo "arch=$arch triplet=$triplet suite=$SUITE archive=$archive"
	printf 'package=%s\n' "${pkgs[@]}"
} >"$CACHE/ready"
# Older sysroots and downloads that no package names any more.
for d in "$CACHE"/sysroot-*; do
	[[ $d == "$ROOT" ]] || rm -rf "$d"
done
for f in "$DEBS"/*.deb; do
	[[ -e $f ]] || continue
	keep=0
	for p in "${pkgs[@]}"; do
		read -r name v <<<"$p"
		[[ ${f##*/} == "${name}_${v//:/%3a}_"* ]] && keep=1 && break
	done
	((keep)) || rm -f "$f"
done
