#!/bin/bash
# Build the out-of-tree modules of the VM tier's 6.12 guest, once per kernel
# release and set of inputs.
#
#   tests/kernel/modules-build.sh [--rebuild]
#
# Each folder of tests/kernel/modules/ is a set: a Kbuild, our own sources,
# and from-kernel, which names the files of Debian's linux-source-6.12 the set
# builds and the modules of the kernel image it needs.  Today:
#   parport  pata_parport, its 15 protocols and the test protocol rtla_ppfake
#            (no Debian kernel enables CONFIG_PATA_PARPORT)
#   irqoff   preemptirq_delay_test, the kernel's interrupts-off test module
#            (Debian's config leaves out CONFIG_PREEMPTIRQ_DELAY_TEST)
#
# The named source files only (not the 147 MB tree) are built against the
# kernel's linux-headers package with this machine's gcc (the kernel is built
# with trixie's gcc-14; bookworm's gcc-12 builds modules that load).  trixie's
# build helpers (modpost, objtool, fixdep, ...) need trixie's glibc: they are
# pointed at trixie's loader and libraries with patchelf.
#
# Result, in $RTLA_VM_CACHE/modules-RELEASE/ (RELEASE: the 6.12 guest's
# uname -r): modules/ with every set's modules and the image's modules they
# need (uncompressed: busybox insmod reads them as they are), and ready.  The
# extracted headers and sources stay there, so that a change to a set's own
# files costs only a rebuild; a change to the kernel files named in
# from-kernel fetches the packages again.  Needs fetch.sh's cache; packages
# come through apt with a private state directory, from the archive fetch.sh
# found.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"
# shellcheck source=../../scripts/apt-private.sh
. "$HERE/../../scripts/apt-private.sh"

rebuild=0
for arg; do
	case $arg in
	--rebuild) rebuild=1 ;;
	-h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) vm_die "modules-build.sh: unknown argument '$arg' (try --help)" ;;
	esac
done

vm_cache_ready || vm_die "the VM cache $VM_CACHE is not filled (run tests/kernel/fetch.sh)"
release=$(cat "$VM_CACHE/kernel-6.12/release")
read -r image_pkg kversion <"$VM_CACHE/kernel-6.12/package"
DIR=$VM_CACHE/modules-$release
SETS=$HERE/modules

# from_kernel WORD: the values of every set's from-kernel lines of that kind
from_kernel() {
	awk -v w="$1" '$1 == w { for (i = 2; i <= NF; i++) print $i }' "$SETS"/*/from-kernel | sort -u
}
mapfile -t sources < <(from_kernel source)
mapfile -t image_mods < <(from_kernel image)
((${#sources[@]})) || vm_die "no set in $SETS names a kernel source (from-kernel)"
# The packages' extract depends on the source paths; the build on every file
# of every set (names and contents).
tree_sum=$(printf '%s\n' "${sources[@]}" | sha256sum | cut -c1-16)
sets_sum=$(cd "$SETS" && find . -type f | LC_ALL=C sort | while read -r f; do
	echo "$f"
	cat "$f"
done | sha256sum | cut -c1-16)

built() { [[ -f $DIR/ready ]] && grep -qx "sets=$sets_sum" "$DIR/ready"; }
if ((!rebuild)) && built; then
	exit 0
fi
mkdir -p "$VM_CACHE"
exec 8>"$VM_CACHE/.modules.lock"
flock 8
if ((!rebuild)) && built; then
	exit 0
fi

for tool in apt-get apt-cache dpkg-deb make gcc readelf strip tar xz sha256sum; do
	command -v "$tool" >/dev/null || vm_die "modules-build.sh needs '$tool', which is not installed"
done

ROOT=$DIR/root		# headers, kbuild helpers, trixie libraries
started=$SECONDS

# --- the packages, once per release and list of sources ---------------------

fetch_tree() {
	local APT=$DIR/apt DEBS=$DIR/apt/debs name v f p headers common kbuild
	local -a members=()
	rm -rf "$DIR"
	mkdir -p "$APT/state/lists/partial" "$APT/cache" "$APT/empty" "$DEBS/partial" "$ROOT" "$DIR/src"
	: >"$APT/state/status"
	# The archive and keyring fetch.sh found; only trixie is needed here.
	grep -E '[[:space:]]trixie[[:space:]]' "$VM_CACHE/apt/sources.list" >"$APT/sources.list" ||
		vm_die "no trixie source in $VM_CACHE/apt/sources.list"
	private_apt_conf "$APT" "$DEBS" amd64 >"$APT/apt.conf"
	export APT_CONFIG=$APT/apt.conf
	vm_log "modules: apt-get update (private state in $APT)"
	if ! apt-get -q update >"$APT/update.log" 2>&1 || grep -qE '^(E|W): ' "$APT/update.log"; then
		cat "$APT/update.log" >&2
		vm_die "apt-get update for trixie failed"
	fi
	headers=linux-headers-$release
	# linux-headers-R depends on linux-headers-...-common(-rt) and linux-kbuild-...
	common=$(apt-cache show "$headers=$kversion" | sed -n 's/^Depends: //p' | tr ',' '\n' |
		grep -oE 'linux-headers-[^ ]+-common[^ ]*' | head -n1)
	kbuild=$(apt-cache show "$headers=$kversion" | sed -n 's/^Depends: //p' | tr ',' '\n' |
		grep -oE 'linux-kbuild-[^ ]+' | head -n1)
	[[ -n $common && -n $kbuild ]] || vm_die "$headers $kversion: cannot find its common headers and kbuild packages"
	local -a pkgs=("linux-source-6.12=$kversion" "$headers=$kversion" "$common=$kversion" "$kbuild=$kversion")
	for name in libc6 libelf1t64 zlib1g libzstd1; do
		v=$(apt-cache madison "$name" | awk -F'|' '$3 ~ /trixie\/main/ { gsub(/ /, "", $2); print $2; exit }')
		[[ -n $v ]] || vm_die "trixie has no package $name"
		pkgs+=("$name=$v")
	done
	vm_log "modules: downloading ${pkgs[*]}"
	(cd "$DEBS" && apt-get -q download "${pkgs[@]}" >"$APT/download.log" 2>&1) || {
		cat "$APT/download.log" >&2
		vm_die "could not download the packages to build the modules"
	}
	# Only the named files and folders, out of the whole tree (kept at
	# their paths under src/).
	for p in "${sources[@]}"; do
		if [[ $p == */ ]]; then members+=("*/$p*"); else members+=("*/$p"); fi
	done
	for f in "$DEBS"/*.deb; do
		case ${f##*/} in
		linux-source-*)
			dpkg-deb --fsys-tarfile "$f" | tar -x -O --wildcards './usr/src/linux-source-*.tar.xz' |
				tar -xJ -C "$DIR/src" --strip-components=1 --wildcards "${members[@]}"
			;;
		*) dpkg-deb -x "$f" "$ROOT" ;;
		esac
	done
	for p in "${sources[@]}"; do
		[[ -e $DIR/src/$p ]] || vm_die "linux-source-6.12 has no $p"
	done
	# The headers' stub Makefile includes the common one by its absolute path.
	sed -i "s|^include /usr/src/|include $ROOT/usr/src/|" "$ROOT/usr/src/$headers/Makefile"
	# trixie's helpers under trixie's loader and libraries.
	local patchelf=$VM_CACHE/patchelf/usr/bin/patchelf libs loader
	libs=$ROOT/usr/lib/x86_64-linux-gnu:$ROOT/lib/x86_64-linux-gnu
	loader=""
	for f in "$ROOT"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$ROOT"/lib64/ld-linux-x86-64.so.2; do
		if [[ -z $loader && -e $f ]]; then loader=$f; fi
	done
	[[ -n $loader ]] || vm_die "trixie's libc6 has no ld-linux-x86-64.so.2"
	while read -r f; do
		if readelf -l "$f" 2>/dev/null | grep -q 'Requesting program interpreter'; then
			"$patchelf" --set-interpreter "$loader" --force-rpath --set-rpath "$libs" "$f"
		fi
	done < <(find "$ROOT/usr/lib/$kbuild" -type f -perm -u+x)
	"$ROOT/usr/lib/$kbuild/scripts/mod/modpost" -h >/dev/null 2>&1 || [[ $? -ne 127 ]] ||
		vm_die "trixie's modpost does not run here"
	rm -rf "$DEBS" "$APT/state/lists" "$APT/cache"
	echo "$headers" >"$DIR/headers"
	echo "sources=$tree_sum" >"$DIR/tree-ready"
}

if ! grep -qsx "sources=$tree_sum" "$DIR/tree-ready"; then
	fetch_tree
fi

# --- the build ---------------------------------------------------------------

B=$DIR/build
rm -rf "$B" "$DIR/ready" "$DIR/modules"
mkdir -p "$B" "$DIR/modules"
# One folder per set under one Kbuild, so that one make builds them all.
for s in "$SETS"/*/; do
	s=$(basename "$s")
	mkdir "$B/$s"
	while read -r p; do
		if [[ $p == */ ]]; then
			find "$DIR/src/$p" -maxdepth 1 -type f -exec cp -t "$B/$s/" {} +
		else
			cp "$DIR/src/$p" "$B/$s/"
		fi
	done < <(awk '$1 == "source" { print $2 }' "$SETS/$s/from-kernel")
	cp "$SETS/$s"/* "$B/$s/"
	echo "obj-m += $s/" >>"$B/Kbuild"
done
cc=gcc
if command -v x86_64-linux-gnu-gcc-12 >/dev/null; then cc=x86_64-linux-gnu-gcc-12; fi
vm_log "modules: building $(cd "$SETS" && echo */ | tr -d /) for $release with $cc"
# CC on the command line beats the headers' gcc-14; the two CONFIG_ values
# switch off what gcc-12 and this machine's tools cannot do (a gcc-14-only
# flag, BTF for modules, which needs pahole).
if ! make -C "$ROOT/usr/src/$(cat "$DIR/headers")" M="$B" CC="$cc" HOSTCC=gcc \
	CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT= CONFIG_DEBUG_INFO_BTF_MODULES= \
	-j"$(nproc)" modules >"$DIR/build.log" 2>&1; then
	tail -n 40 "$DIR/build.log" >&2
	vm_die "building the modules failed (log: $DIR/build.log)"
fi
# Without their debug information the 17 parport modules shrink from 9 to 2 MB
# of initramfs.
for f in "$B"/*/*.ko; do
	[[ ! -e $DIR/modules/${f##*/} ]] || vm_die "two sets build ${f##*/}"
	strip --strip-debug -o "$DIR/modules/${f##*/}" "$f"
done
rm -rf "$B"
# The kernel's own modules the sets need, from the image the tier boots.
if ((${#image_mods[@]})); then
	image=$(echo "$VM_CACHE/debs/${image_pkg}_${kversion//:/%3a}_"*.deb)
	[[ -f $image ]] || vm_die "$image is missing (run tests/kernel/fetch.sh --refresh)"
	mkdir -p "$DIR/img"
	members=()
	for m in "${image_mods[@]}"; do members+=("*/$m.ko.xz"); done
	dpkg-deb --fsys-tarfile "$image" | tar -x -C "$DIR/img" --wildcards "${members[@]}"
	for m in "${image_mods[@]}"; do
		f=$(find "$DIR/img" -name "$m.ko.xz" | head -n1)
		[[ -n $f ]] || vm_die "the kernel image has no module $m"
		xz -dc "$f" >"$DIR/modules/$m.ko"
	done
	rm -rf "$DIR/img"
fi
{
	echo "release=$release"
	echo "sets=$sets_sum"
	echo "cc=$("$cc" --version | head -n1)"
} >"$DIR/ready"
mods=("$DIR"/modules/*.ko)
vm_log "modules: ready in $DIR/modules (${#mods[@]} files, $((SECONDS - started)) s)"
