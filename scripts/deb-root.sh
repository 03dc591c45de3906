#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Clean Debian bookworm roots, made by mmdebstrap and cached as tarballs, and
# commands run inside them: the arm64 package is built in one ("make deb
# DEB_ARCH=arm64"), and the package tier installs the package into another.
#
#   scripts/deb-root.sh make NAME [--foreign ARCH] [--build-deps DIR] [PKG...]
#       print the tarball of a root with PKG... installed (made on first use);
#       --foreign ARCH adds ARCH as a foreign architecture, --build-deps DIR
#       installs the build dependencies of DIR/debian/control for ARCH (or
#       for the root's own architecture) with "apt-get build-dep".
#   scripts/deb-root.sh unpack TARBALL DIR
#   scripts/deb-root.sh run DIR [--bind HOSTDIR:DIR]... -- COMMAND...
#       run COMMAND in the root DIR as root, in namespaces of its own: /proc
#       of a new PID namespace, the host's /dev and resolv.conf bound, all of
#       it unmounted when COMMAND ends. Nothing of the machine is changed.
#
# The cache is ${RTLA_CROSS_CACHE:-/var/cache/rtla-cross}/deb-root/NAME-HASH.tar,
# HASH naming everything the root is made from (suite, architectures, the
# package list, the build dependencies' control file, the archive), so a
# changed list makes a new root beside the old one, which is then removed.
# A root keeps its package lists: apt inside it resolves without an update
# until the archive moves on. The archive is the one this machine's apt
# sources name (scripts/apt-private.sh), or RTLA_VM_MIRROR.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=apt-private.sh
. "$HERE/apt-private.sh"

SUITE=bookworm
die() { printf 'rtla deb-root: %s\n' "$*" >&2; exit 1; }
log() { printf 'rtla deb-root: %s\n' "$*" >&2; }

make_root() {
	local name=$1 foreign="" deps="" archive keyring found pkgs=() tar hash cache
	shift
	while (($#)); do
		case $1 in
		--foreign) foreign=$2; shift 2 ;;
		--build-deps) deps=$2; shift 2 ;;
		-*) die "unknown option: $1" ;;
		*) pkgs+=("$1"); shift ;;
		esac
	done
	[[ -z $deps || -f $deps/debian/control ]] || die "no $deps/debian/control"
	command -v mmdebstrap >/dev/null || die "needs mmdebstrap (scripts/deps.sh check installs it)"
	if [[ -n ${RTLA_VM_MIRROR:-} ]]; then
		archive=$RTLA_VM_MIRROR keyring=-
	else
		found=$(find_archive) || die "no Debian archive for bookworm in /etc/apt/sources.list or /etc/apt/sources.list.d/; name one with RTLA_VM_MIRROR=URI"
		read -r archive keyring <<<"$found"
	fi
	cache=${RTLA_CROSS_CACHE:-/var/cache/rtla-cross}/deb-root
	mkdir -p "$cache" 2>/dev/null || die "cannot create the cache folder $cache (set RTLA_CROSS_CACHE)"
	hash=$({
		echo "$SUITE $archive $keyring foreign=$foreign"
		printf '%s\n' "${pkgs[@]}"
		[[ -z $deps ]] || cat "$deps/debian/control"
	} | sha256sum | cut -c1-12)
	tar=$cache/$name-$hash.tar
	exec 9>"$cache/.$name.lock"
	flock 9
	if [[ ! -f $tar ]]; then
		local opts=(--variant=apt --mode=root --format=tar --skip=cleanup/apt/lists
			"--include=$(IFS=,; echo "${pkgs[*]}")")
		[[ $keyring == - ]] || opts+=("--keyring=$keyring")
		if [[ -n $foreign ]]; then
			opts+=("--architectures=$(dpkg --print-architecture),$foreign")
		fi
		if [[ -n $deps ]]; then
			# apt-get build-dep reads the control file of a source folder
			opts+=("--customize-hook=mkdir -p \"\$1/tmp/src/debian\""
				"--customize-hook=copy-in $deps/debian/control /tmp/src/debian"
				"--customize-hook=chroot \"\$1\" apt-get -y -q build-dep ${foreign:+-a $foreign} /tmp/src"
				"--customize-hook=rm -rf \"\$1/tmp/src\"")
		fi
		log "making the $SUITE root $name (mmdebstrap, once): $tar"
		# Its temporary root in the cache, not in the caller's TMPDIR (bats'
		# is private to root, and apt downloads as the user _apt). File
		# descriptors 3 to 9 closed: mmdebstrap hands apt a pipe that dash
		# writes to, and dash takes one digit only (bats holds several).
		mkdir -p "$cache/tmp"
		if ! TMPDIR=$cache/tmp mmdebstrap -q "${opts[@]}" "$SUITE" "$tar.new" \
			"deb $archive $SUITE main" "deb $archive $SUITE-updates main" \
			>"$cache/$name.log" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; then
			tail -n 30 "$cache/$name.log" >&2
			rm -f "$tar.new"
			die "mmdebstrap failed (the whole log: $cache/$name.log)"
		fi
		mv "$tar.new" "$tar"
	fi
	local old
	for old in "$cache/$name"-*.tar; do
		[[ $old == "$tar" ]] || rm -f "$old"
	done
	echo "$tar"
}

run_in_root() {
	local root binds=() cmd
	root=$(cd "$1" && pwd)
	shift
	while (($#)); do
		case $1 in
		--bind) binds+=("$2"); shift 2 ;;
		--) shift; break ;;
		*) die "run: '$1': expected --bind HOSTDIR:DIR or -- COMMAND" ;;
		esac
	done
	(($#)) || die "run: no command"
	[[ -d $root/proc && -d $root/dev ]] || die "run: $root is not a root made by '$0 make'"
	# Inside the new mount namespace (private propagation): the mounts go with it.
	# shellcheck disable=SC2016 # expanded by the inner bash
	cmd='root=$1; shift
		mount --rbind /dev "$root/dev"
		[ -e "$root/etc/resolv.conf" ] || : >"$root/etc/resolv.conf"
		mount --bind /etc/resolv.conf "$root/etc/resolv.conf"
		while [ "$1" != -- ]; do
			mkdir -p "$root/${1#*:}" && mount --bind "${1%%:*}" "$root/${1#*:}" || exit 1
			shift
		done
		shift
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"'
	unshare --mount --pid --fork --mount-proc="$root/proc" \
		bash -c "$cmd" deb-root "$root" "${binds[@]}" -- "$@"
}

case ${1:-} in
make) shift; (($#)) || die "make: no NAME"; make_root "$@" ;;
unpack)
	(($# == 3)) || die "usage: $0 unpack TARBALL DIR"
	rm -rf "$3" && mkdir -p "$3" && tar -x -C "$3" -f "$2" ;;
run) shift; (($#)) || die "run: no root"; run_in_root "$@" ;;
-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0" ;;
*) die "usage: $0 make|unpack|run ... (--help)" ;;
esac
