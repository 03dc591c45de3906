#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The sysroot of a cross build: Debian bookworm's -dev packages of rtla's
# libraries for another architecture, with their run-time closure, unpacked
# into a folder the cross compiler is pointed at (--sysroot) and pkg-config
# reads (PKG_CONFIG_SYSROOT_DIR, PKG_CONFIG_LIBDIR).
#
#   scripts/cross-sysroot.sh [--refresh] ARCH      ARCH: arm64, armhf or riscv64
#
# riscv64 has a linker of its own besides: bookworm has no riscv64, so its
# sysroot is trixie's, and trixie's objects (libc.a's .gcc_except_table) carry
# the relocations R_RISCV_SET_ULEB128/R_RISCV_SUB_ULEB128 (types 60, 61: a
# uleb128 difference of labels that relaxation may move), which binutils 2.41
# introduced: bookworm's ld 2.40 does not know them and crashes (SIGSEGV in
# libbfd) on any static link, even of "hello world"; --no-relax does not
# help, the relocations are in the objects.  So trixie's own
# binutils-riscv64-linux-gnu and its run-time closure (host architecture) are
# unpacked like the sysroot into ARCH/linker, and ARCH/linker/ld-only/ld runs
# that ld through trixie's own dynamic loader and libraries: no chroot, no
# root, nothing installed.  The Makefile hands it to bookworm's gcc (-B):
# compiling stays bookworm's, only the link is trixie's.
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
armhf) triplet=arm-linux-gnueabihf ;;
riscv64) triplet=riscv64-linux-gnu ;;
*) die "architecture: '${arch}' (arm64, armhf or riscv64)" ;;
esac

CACHE=${RTLA_CROSS_CACHE:-/var/cache/rtla-cross}/$arch
# Bookworm's -dev packages of the libraries rtla links (the Makefile's PKGS)
# and of the BPF reader of rtla mdwe; apt adds their closure.
DEV="libc6-dev linux-libc-dev libtracefs-dev libtraceevent-dev libproc2-dev libncurses-dev
libcap-dev libsmartcols-dev zlib1g-dev libbpf-dev libelf-dev"
SUITE=bookworm
[[ $arch == riscv64 ]] && SUITE=trixie    # bookworm has no riscv64

host_arch=$(dpkg --print-architecture)
LINKER=""
[[ $arch == riscv64 ]] && LINKER="binutils-$triplet"

ready() {
	[[ -f $CACHE/ready && -d $CACHE/sysroot/usr/include ]] &&
		{ [[ -z $LINKER ]] || [[ -x $CACHE/linker/ld-only/ld ]]; }
}
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

# unpack NAME ARCH PKGS...: PKGS of $SUITE for ARCH with their closure,
# resolved with a private apt state and unpacked into $CACHE/NAME-HASH, HASH
# naming the exact versions; sets ROOT and pkgs ("name version" each).
unpack() {
	local name=$1 parch=$2 APT found keyring signed sim hash p v file target link d
	shift 2
	APT=$CACHE/apt
	[[ $name == sysroot ]] || APT=$CACHE/apt-$name
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
		private_apt_conf "$APT" "$DEBS" "$parch"
		echo "APT::Default-Release \"$SUITE\";"
	} >"$APT/apt.conf"
	export APT_CONFIG=$APT/apt.conf

	log "apt-get update ($name, $parch, private state in $APT)"
	if ! apt-get -q update >"$APT/update.log" 2>&1 || grep -qE '^(E|W): ' "$APT/update.log"; then
		cat "$APT/update.log" >&2
		die "apt-get update against $archive failed"
	fi

	# The closure, as apt would install it on an empty $parch system: "name version".
	sim=$(apt-get -s -q install --no-install-recommends "$@" 2>&1) || {
		printf '%s\n' "$sim" | grep -E '^(E:|  )' >&2
		die "apt cannot resolve the $parch packages of $SUITE: $*"
	}
	mapfile -t pkgs < <(sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1 \2/p' <<<"$sim" | sort)
	((${#pkgs[@]})) || die "apt resolved no packages for $*"
	hash=$(printf '%s\n' "${pkgs[@]}" | sha256sum | cut -c1-12)
	ROOT=$CACHE/$name-$hash
	[[ ! -f $ROOT/.complete ]] || return 0
	rm -rf "$ROOT"
	mkdir -p "$ROOT"
	# the linker's closure and the sysroot share libc6 and others by name and
	# version: the file of the right architecture
	deb_of() {
		local f
		for f in "$DEBS/${1}_${2//:/%3a}_$parch.deb" "$DEBS/${1}_${2//:/%3a}_all.deb"; do
			if [[ -f $f ]]; then break; fi
		done
		echo "$f"
	}
	for p in "${pkgs[@]}"; do
		read -r p v <<<"$p"
		file=$(deb_of "$p" "$v")
		if [[ ! -f $file ]]; then
			(cd "$DEBS" && apt-get -q download "$p=$v" >"$APT/download.log" 2>&1) || {
				cat "$APT/download.log" >&2
				die "could not download the $parch package $p $v"
			}
			file=$(deb_of "$p" "$v")
			[[ -f $file ]] || die "apt-get download $p=$v left no .deb"
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
	log "$name: $ROOT (${#pkgs[@]} packages, $(du -sh "$ROOT" | cut -f1))"
}

DEBS=$CACHE/debs
all_pkgs=()
if [[ -n $LINKER ]]; then
	unpack linker "$host_arch" "$LINKER"
	LROOT=$ROOT
	all_pkgs+=("${pkgs[@]/#/$host_arch }")
	multiarch=$(gcc -dumpmachine)
	loaders=("$LROOT/usr/lib/$multiarch"/ld-linux*.so.*)
	[[ -f ${loaders[0]} ]] || die "trixie's $LINKER: no dynamic loader in $LROOT/usr/lib/$multiarch"
	# gcc -B DIR/ takes DIR/ld as its linker, and would take any other tool
	# found there as well: ld-only/ holds the wrapper alone (usr/bin has
	# trixie's as, which stays out). The paths are the cache's own.
	mkdir -p "$LROOT/ld-only"
	cat >"$LROOT/ld-only/ld" <<EOF
#!/bin/sh
# trixie's $LINKER, run by trixie's loader and libraries (scripts/cross-sysroot.sh)
exec "${loaders[0]}" --library-path "$LROOT/usr/lib/$multiarch" "$LROOT/usr/bin/$triplet-ld.bfd" "\$@"
EOF
	chmod +x "$LROOT/ld-only/ld"
	"$LROOT/ld-only/ld" --version >/dev/null || die "trixie's $triplet-ld does not run here ($LROOT/ld-only/ld)"
	ln -sfn "${LROOT##*/}" "$CACHE/linker.new"
	mv -T "$CACHE/linker.new" "$CACHE/linker"
fi

# shellcheck disable=SC2086 # DEV is a list
unpack sysroot "$arch" $DEV
all_pkgs+=("${pkgs[@]}")
hash=${ROOT##*-}
ln -sfn "sysroot-$hash" "$CACHE/sysroot.new"
mv -T "$CACHE/sysroot.new" "$CACHE/sysroot"
{
	echo "arch=$arch triplet=$triplet suite=$SUITE archive=$archive"
	printf 'package=%s\n' "${all_pkgs[@]}"
} >"$CACHE/ready"
# Older roots and downloads that no package names any more.
for d in "$CACHE"/sysroot-* "$CACHE"/linker-*; do
	[[ -e $d && $d != "$ROOT" && $d != "${LROOT:-}" ]] || continue
	rm -rf "$d"
done
for f in "$DEBS"/*.deb; do
	[[ -e $f ]] || continue
	keep=0
	for p in "${all_pkgs[@]}"; do
		read -r name v <<<"${p#"$host_arch "}"
		[[ ${f##*/} == "${name}_${v//:/%3a}_"* ]] && keep=1 && break
	done
	((keep)) || rm -f "$f"
done
