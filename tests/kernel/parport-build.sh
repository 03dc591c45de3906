#!/bin/bash
# Build the pata_parport driver and the test protocol rtla_ppfake as modules
# for the VM tier's 6.12 kernel, once per kernel release.
#
#   tests/kernel/parport-build.sh [--rebuild]
#
# No Debian kernel enables CONFIG_PATA_PARPORT, so drivers/ata/pata_parport/
# of Debian's linux-source-6.12 (only that folder) is built out of tree
# against the kernel's linux-headers package with this machine's gcc (the
# kernel is built with trixie's gcc-14; bookworm's gcc-12 builds modules that
# load).  trixie's build helpers (modpost, objtool, fixdep, ...) need trixie's
# glibc: they are pointed at trixie's loader and libraries with patchelf.
#
# Result, in $RTLA_VM_CACHE/parport-RELEASE/ (RELEASE: the 6.12 guest's
# uname -r): modules/ with the driver, its 15 protocols, rtla_ppfake and the
# kernel's own scsi_common, scsi_mod, sd_mod, libata, parport and parport_pc
# (uncompressed: busybox insmod reads them as they are), and ready.  The
# extracted headers stay there, so that a change to parport-fake/ costs only
# a rebuild.  Needs fetch.sh's cache; packages come through apt with a private
# state directory, from the archive fetch.sh found.
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
	*) vm_die "parport-build.sh: unknown argument '$arg' (try --help)" ;;
	esac
done

vm_cache_ready || vm_die "the VM cache $VM_CACHE is not filled (run tests/kernel/fetch.sh)"
release=$(cat "$VM_CACHE/kernel-6.12/release")
read -r image_pkg kversion <"$VM_CACHE/kernel-6.12/package"
DIR=$VM_CACHE/parport-$release
FAKE=$HERE/parport-fake
fake_sum=$(cat "$FAKE"/* | sha256sum | cut -c1-16)

built() { [[ -f $DIR/ready ]] && grep -qx "fake=$fake_sum" "$DIR/ready"; }
if ((!rebuild)) && built; then
	exit 0
fi
exec 8>"$VM_CACHE/.parport.lock"
flock 8
if ((!rebuild)) && built; then
	exit 0
fi

for tool in apt-get apt-cache dpkg-deb make gcc readelf strip tar xz sha256sum; do
	command -v "$tool" >/dev/null || vm_die "parport-build.sh needs '$tool', which is not installed"
done

ROOT=$DIR/root		# headers, kbuild helpers, trixie libraries
started=$SECONDS

# --- the packages, once per release -----------------------------------------

fetch_tree() {
	local APT=$DIR/apt DEBS=$DIR/apt/debs name v f headers common kbuild
	rm -rf "$DIR"
	mkdir -p "$APT/state/lists/partial" "$APT/cache" "$APT/empty" "$DEBS/partial" "$ROOT" "$DIR/src"
	: >"$APT/state/status"
	# The archive and keyring fetch.sh found; only trixie is needed here.
	grep -E '[[:space:]]trixie[[:space:]]' "$VM_CACHE/apt/sources.list" >"$APT/sources.list" ||
		vm_die "no trixie source in $VM_CACHE/apt/sources.list"
	private_apt_conf "$APT" "$DEBS" amd64 >"$APT/apt.conf"
	export APT_CONFIG=$APT/apt.conf
	vm_log "parport: apt-get update (private state in $APT)"
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
	vm_log "parport: downloading ${pkgs[*]}"
	(cd "$DEBS" && apt-get -q download "${pkgs[@]}" >"$APT/download.log" 2>&1) || {
		cat "$APT/download.log" >&2
		vm_die "could not download the packages to build pata_parport"
	}
	for f in "$DEBS"/*.deb; do
		case ${f##*/} in
		linux-source-*)
			# Only the driver's folder, out of the whole tree.
			dpkg-deb --fsys-tarfile "$f" | tar -x -O --wildcards './usr/src/linux-source-*.tar.xz' |
				tar -xJ -C "$DIR/src" --strip-components=4 --wildcards '*/drivers/ata/pata_parport/*'
			;;
		*) dpkg-deb -x "$f" "$ROOT" ;;
		esac
	done
	[[ -f $DIR/src/pata_parport.c ]] || vm_die "linux-source-6.12 has no drivers/ata/pata_parport/"
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
	# The kernel's own modules the driver needs, from the image the tier boots.
	local image
	image=$(echo "$VM_CACHE/debs/${image_pkg}_${kversion//:/%3a}_"*.deb)
	[[ -f $image ]] || vm_die "$image is missing (run tests/kernel/fetch.sh --refresh)"
	mkdir -p "$DIR/modules" "$DIR/img"
	dpkg-deb --fsys-tarfile "$image" | tar -x -C "$DIR/img" --wildcards \
		'*/scsi_common.ko.xz' '*/scsi_mod.ko.xz' '*/sd_mod.ko.xz' '*/libata.ko.xz' \
		'*/parport.ko.xz' '*/parport_pc.ko.xz'
	while read -r f; do
		f=${f#"$DIR/img/"}
		xz -dc "$DIR/img/$f" >"$DIR/modules/$(basename "$f" .xz)"
	done < <(find "$DIR/img" -name '*.ko.xz')
	rm -rf "$DIR/img" "$DEBS" "$APT/state/lists" "$APT/cache"
	echo "$headers" >"$DIR/headers"
	touch "$DIR/tree-ready"
}

if [[ ! -f $DIR/tree-ready ]]; then
	fetch_tree
fi

# --- the build ---------------------------------------------------------------

B=$DIR/build
rm -rf "$B" "$DIR/ready"
mkdir -p "$B"
cp "$DIR"/src/*.c "$DIR"/src/*.h "$B/"
cp "$FAKE"/* "$B/"
cc=gcc
if command -v x86_64-linux-gnu-gcc-12 >/dev/null; then cc=x86_64-linux-gnu-gcc-12; fi
vm_log "parport: building pata_parport and rtla_ppfake for $release with $cc"
# CC on the command line beats the headers' gcc-14; the two CONFIG_ values
# switch off what gcc-12 and this machine's tools cannot do (a gcc-14-only
# flag, BTF for modules, which needs pahole).
if ! make -C "$ROOT/usr/src/$(cat "$DIR/headers")" M="$B" CC="$cc" HOSTCC=gcc \
	CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT= CONFIG_DEBUG_INFO_BTF_MODULES= \
	-j"$(nproc)" modules >"$DIR/build.log" 2>&1; then
	tail -n 40 "$DIR/build.log" >&2
	vm_die "building pata_parport failed (log: $DIR/build.log)"
fi
# Without their debug information the 17 modules shrink from 9 to 2 MB of initramfs.
for f in "$B"/*.ko; do
	strip --strip-debug -o "$DIR/modules/${f##*/}" "$f"
done
rm -rf "$B"
{
	echo "release=$release"
	echo "fake=$fake_sum"
	echo "cc=$("$cc" --version | head -n1)"
} >"$DIR/ready"
mods=("$DIR"/modules/*.ko)
vm_log "parport: modules ready in $DIR/modules (${#mods[@]} files, $((SECONDS - started)) s)"
