#!/bin/bash
# Fill the VM tier's download cache: the two RT kernels (with their msr.ko),
# the peer rtla with its trixie libraries, rt-tests (hwlatdetect with a
# minimal python3, cyclictest, oslat), busybox, bash, bats and patchelf.
#
#   tests/kernel/fetch.sh [--refresh]
#
# The cache is ${RTLA_VM_CACHE:-/var/cache/rtla-vm}.  Packages come from the
# Debian archive named in this machine's own apt sources (or $RTLA_VM_MIRROR),
# through apt with a private state directory: the machine's apt configuration,
# lists and package database are left untouched.  A filled cache is used as it
# is, without the network; --refresh resolves the packages again and downloads
# whatever changed.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"

refresh=0
for arg; do
	case $arg in
	--refresh) refresh=1 ;;
	-h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) vm_die "fetch.sh: unknown argument '$arg' (try --help)" ;;
	esac
done

if ((!refresh)) && vm_cache_ready; then
	exit 0
fi

for tool in apt-get apt-cache apt-config dpkg-deb dpkg flock readelf tar xz; do
	command -v "$tool" >/dev/null || vm_die "fetch.sh needs '$tool', which is not installed"
done

mkdir -p "$VM_CACHE" || vm_die "cannot create the cache folder $VM_CACHE (set RTLA_VM_CACHE)"
exec 9>"$VM_CACHE/.lock"
flock 9
# Another run may have filled the cache while this one waited for the lock.
if ((!refresh)) && vm_cache_ready; then
	exit 0
fi

APT=$VM_CACHE/apt
STAGE=$VM_CACHE/.stage
DEBS=$VM_CACHE/debs
rm -rf "$STAGE"
mkdir -p "$APT/state/lists/partial" "$APT/cache" "$APT/empty" "$DEBS/partial" "$STAGE"
trap 'rm -rf "$STAGE"' EXIT
: >"$APT/state/status"

# --- the archive -----------------------------------------------------------

# host_sources, find_archive and private_apt_conf, shared with the cross
# sysroot (scripts/cross-sysroot.sh).
# shellcheck source=../../scripts/apt-private.sh
. "$HERE/../../scripts/apt-private.sh"

if [[ -n ${RTLA_VM_MIRROR:-} ]]; then
	archive=$RTLA_VM_MIRROR
	keyring=-
else
	found=$(find_archive) || vm_die "no Debian archive for bookworm or trixie in /etc/apt/sources.list or /etc/apt/sources.list.d/; name one with RTLA_VM_MIRROR=URI"
	read -r archive keyring <<<"$found"
fi
vm_log "archive: $archive"

signed=""
if [[ $keyring != - ]]; then
	signed="[signed-by=$keyring] "
fi
{
	for suite in bookworm bookworm-backports trixie; do
		echo "deb ${signed}$archive $suite main"
	done
} >"$APT/sources.list"

private_apt_conf "$APT" "$DEBS" amd64 >"$APT/apt.conf"
export APT_CONFIG=$APT/apt.conf

vm_log "apt-get update (private state in $APT)"
if ! apt-get -q update >"$APT/update.log" 2>&1 || grep -qE '^(E|W): ' "$APT/update.log"; then
	cat "$APT/update.log" >&2
	vm_die "apt-get update against $archive failed (bookworm, bookworm-backports, trixie)"
fi

# --- choosing the packages -------------------------------------------------

# Versions of package $1 in suite $2, one a line.
versions_in() {
	apt-cache madison "$1" 2>/dev/null |
		awk -F'|' -v suite="$2" '{
			gsub(/^ +| +$/, "", $2)
			if ((" " $3) ~ (" " suite "/")) print $2
		}'
}

# Print "name version" of the newest ($3 = newest) or oldest ($3 = oldest) of the
# packages named like the regex $1 in suite $2 whose version is below $4 (if set).
pick_kernel() {
	local re=$1 suite=$2 order=$3 below=${4:-} name v best_name="" best_v=""
	while read -r name; do
		[[ $name =~ $re ]] || continue
		while read -r v; do
			[[ -n $v ]] || continue
			if [[ -n $below ]] && ! dpkg --compare-versions "$v" lt "$below"; then
				continue
			fi
			if [[ -z $best_v ]] ||
				{ [[ $order == newest ]] && dpkg --compare-versions "$v" gt "$best_v"; } ||
				{ [[ $order == oldest ]] && dpkg --compare-versions "$v" lt "$best_v"; }; then
				best_name=$name
				best_v=$v
			fi
		done < <(versions_in "$name" "$suite")
	done < <(apt-cache pkgnames linux-image- | sort)
	[[ -n $best_name ]] || return 1
	echo "$best_name $best_v"
}

k612=$(pick_kernel '^linux-image-6\.12\.[0-9]+\+deb13(\.[0-9]+)?-rt-amd64-unsigned$' trixie newest) ||
	vm_die "trixie has no linux-image-6.12.*+deb13-rt-amd64-unsigned package"
# osnoise/options reached 6.1 with the 6.1.188 stable update; the old-kernel
# path needs a kernel from before it.
k61=$(pick_kernel '^linux-image-6\.1\.0-[0-9]+-rt-amd64-unsigned$' bookworm oldest 6.1.188) ||
	vm_die "bookworm has no linux-image-6.1.0-*-rt-amd64-unsigned older than 6.1.188 (the update that added osnoise/options); the 6.1 tier needs one"

# trixie's python, which runs rt-tests' hwlatdetect
PYTHON=python3.13
# "name suite" of the other packages.
others=(
	"rtla trixie" "libtracefs1 trixie" "libtraceevent1 trixie" "libc6 trixie" "libgcc-s1 trixie"
	"rt-tests trixie" "$PYTHON-minimal trixie" "lib$PYTHON-minimal trixie" "zlib1g trixie"
	"libexpat1 trixie" "libnuma1 trixie" "msr-tools bookworm"
	"busybox-static bookworm" "bash-static bookworm" "bats bookworm" "patchelf bookworm"
)
declare -A version
read -r name v <<<"$k612"; version[$name]=$v; kpkg[0]=$name
read -r name v <<<"$k61"; version[$name]=$v; kpkg[1]=$name
for entry in "${others[@]}"; do
	read -r name suite <<<"$entry"
	v=$(versions_in "$name" "$suite" | head -n1)
	[[ -n $v ]] || vm_die "$suite has no package $name"
	version[$name]=$v
done

# --- downloading -----------------------------------------------------------

declare -A debfile
for name in "${!version[@]}"; do
	v=${version[$name]}
	# apt-get download's name for it: the epoch's colon is written %3a
	arch=$(apt-cache show "$name=$v" | sed -n 's/^Architecture: //p' | head -n1)
	[[ -n $arch ]] || vm_die "apt-cache show $name=$v found nothing"
	file=${name}_${v//:/%3a}_$arch.deb
	debfile[$name]=$DEBS/$file
	if [[ ! -s $DEBS/$file ]]; then
		vm_log "downloading $name $v"
		(cd "$DEBS" && apt-get -q download "$name=$v" >"$APT/download.log" 2>&1) || {
			cat "$APT/download.log" >&2
			vm_die "could not download $name $v from $archive"
		}
		[[ -s $DEBS/$file ]] || vm_die "apt-get download $name=$v did not leave $file"
	fi
done

# --- unpacking -------------------------------------------------------------

x() { dpkg-deb -x "${debfile[$1]}" "$2"; }

# The kernel's scripts/extract-vmlinux, in bash: find a compressed stream in
# the bzImage that unpacks to an ELF file.
extract_vmlinux() {
	local img=$1 out=$2 magic tag cmd pos
	# magic bytes as tr(1) escapes, a tag as long as the magic less one byte,
	# and the command that unpacks the stream
	local -a tries=(
		'\037\213\010' xy gunzip
		'\3757zXZ\000' abcde unxz
		'BZh' xy bunzip2
		'\135\0\0\0' xxx unlzma
		'\211\114\132' xy 'lzop -d'
		'\002!L\030' xxx 'lz4 -d'
		'(\265/\375' xxx unzstd
	)
	local i
	for ((i = 0; i < ${#tries[@]}; i += 3)); do
		magic=${tries[i]} tag=${tries[i + 1]} cmd=${tries[i + 2]}
		command -v "${cmd%% *}" >/dev/null || continue
		for pos in $(LC_ALL=C tr "$magic\\n$tag" "\\n$tag=" <"$img" | LC_ALL=C grep -abo "^$tag"); do
			pos=${pos%%:*}
			tail -c+"$pos" "$img" | $cmd >"$out" 2>/dev/null || true
			if readelf -h "$out" >/dev/null 2>&1; then
				return 0
			fi
		done
	done
	rm -f "$out"
	return 1
}

unpack_kernel() {
	local short=$1 pkg=$2 dir=$STAGE/kernel-$1 tmp=$STAGE/kdeb-$1 vmlinuz msr
	mkdir -p "$dir" "$tmp"
	dpkg-deb --fsys-tarfile "${debfile[$pkg]}" |
		tar -x -C "$tmp" --wildcards './boot/*' '*/kernel/arch/x86/kernel/msr.ko*' '*/modules.builtin'
	vmlinuz=$(echo "$tmp"/boot/vmlinuz-*)
	[[ -f $vmlinuz ]] || vm_die "$pkg has no /boot/vmlinuz-*"
	mv "$vmlinuz" "$dir/vmlinuz"
	mv "$tmp"/boot/config-* "$dir/config"
	echo "${vmlinuz##*/vmlinuz-}" >"$dir/release"
	# The msr driver (/dev/cpu/N/msr), for the guests to load when a test
	# asks: uncompressed, as busybox insmod reads a module as it is (6.12's
	# modules are .ko.xz, 6.1's plain .ko).
	msr=$(find "$tmp" -path '*/kernel/arch/x86/kernel/msr.ko*' -print -quit)
	case $msr in
	*.ko) mv "$msr" "$dir/msr.ko" ;;
	*.ko.xz) xz -dc "$msr" >"$dir/msr.ko" ;;
	*) vm_die "$pkg has no kernel/arch/x86/kernel/msr.ko (or .ko.xz)" ;;
	esac
	# what a real /lib/modules/RELEASE has beside modules.dep
	find "$tmp" -name modules.builtin -exec mv {} "$dir/modules.builtin" \; -quit
	[[ -f $dir/modules.builtin ]] || vm_die "$pkg has no modules.builtin"
	echo "$pkg ${version[$pkg]}" >"$dir/package"
	rm -rf "$tmp"
	# Under TCG the bzImage spends seconds unpacking itself; an ELF vmlinux
	# with a PVH entry note boots straight away.
	# (The PVH entry is Xen ELF note 18, XEN_ELFNOTE_PHYS32_ENTRY.)
	if extract_vmlinux "$dir/vmlinuz" "$dir/vmlinux" &&
		grep -qE '^[[:space:]]+Xen[[:space:]]+0x[0-9a-f]+[[:space:]]+.*(\(0x00000012\)|PHYS32_ENTRY)' \
			<<<"$(readelf -n "$dir/vmlinux")"; then
		echo vmlinux >"$dir/boot"
		rm -f "$dir/vmlinuz"
	else
		vm_log "kernel $short: no vmlinux with a PVH entry; booting the bzImage"
		rm -f "$dir/vmlinux"
		echo vmlinuz >"$dir/boot"
	fi
}

vm_log "unpacking into $VM_CACHE"
unpack_kernel 6.12 "${kpkg[0]}"
unpack_kernel 6.1 "${kpkg[1]}"

x busybox-static "$STAGE/busybox-deb"
mkdir -p "$STAGE/busybox"
mv "$STAGE/busybox-deb/bin/busybox" "$STAGE/busybox/busybox"
rm -rf "$STAGE/busybox-deb"
# the whole help first: "grep -q" ending the pipe early is a SIGPIPE under pipefail
cpio_help=$("$STAGE/busybox/busybox" cpio --help 2>&1 || true)
[[ $cpio_help == *-o* ]] || vm_die "this busybox cannot create cpio archives"

# A static bash starts three times faster than the dynamic one under TCG,
# and bats starts many.
x bash-static "$STAGE/bash-deb"
mkdir -p "$STAGE/bash"
mv "$STAGE/bash-deb/bin/bash-static" "$STAGE/bash/bash"
rm -rf "$STAGE/bash-deb"
"$STAGE/bash/bash" -c true || vm_die "the unpacked bash-static does not run"

x bats "$STAGE/bats"

x patchelf "$STAGE/patchelf"
PATCHELF=$STAGE/patchelf/usr/bin/patchelf
"$PATCHELF" --version >/dev/null || vm_die "the unpacked patchelf does not run"

# The peer: trixie's rtla with its own trixie libc and libraries in one
# folder, its ELF interpreter and rpath pointing there, so that it runs
# beside our binary's bookworm libraries without either seeing the other's.
PEER_DIR=/opt/peer    # where it lives in the guest
proot=$STAGE/peer-root
for name in rtla libtracefs1 libtraceevent1 libc6 libgcc-s1; do
	x "$name" "$proot"
done
mkdir -p "$STAGE/peer/bin" "$STAGE/peer/lib"
cp "$proot/usr/bin/rtla" "$STAGE/peer/bin/rtla"
for lib in "$proot"/usr/lib/x86_64-linux-gnu/*.so*; do
	if [[ -f $lib ]]; then cp -L "$lib" "$STAGE/peer/lib/"; fi
done
"$PATCHELF" --set-interpreter "$PEER_DIR/lib/ld-linux-x86-64.so.2" \
	--force-rpath --set-rpath "$PEER_DIR/lib" "$STAGE/peer/bin/rtla"
rm -rf "$proot"
# Every library it needs must be in the folder: ask its own loader.
if ! libs=$("$STAGE/peer/lib/ld-linux-x86-64.so.2" --library-path "$STAGE/peer/lib" \
	--list "$STAGE/peer/bin/rtla" 2>&1) || grep -q 'not found' <<<"$libs" ||
	grep -E '=> /' <<<"$libs" | grep -vq "=> $STAGE/peer/lib/"; then
	echo "$libs" >&2
	vm_die "the peer rtla does not find all its libraries in its own folder"
fi

# rt-tests: hwlatdetect (a python script) with trixie's minimal python, and
# cyclictest and oslat; and msr-tools' rdmsr, with which hwlatdetect counts
# the SMIs of its run (it looks for /usr/sbin/rdmsr): bookworm's, as trixie's
# rdmsr -a starts each line with "CPU N: ", which hwlatdetect cannot read as a
# number.  The programs use the peer's trixie loader and libc
# (the same libc6 package) and their own few libraries in rt-tests/lib.
RT_DIR=/opt/rt-tests    # where it lives in the guest
rroot=$STAGE/rt-root
rt=$STAGE/rt-tests
pylib=$rt/lib/$PYTHON
for name in rt-tests "$PYTHON-minimal" "lib$PYTHON-minimal" zlib1g libexpat1 libnuma1 msr-tools; do
	x "$name" "$rroot"
done
mkdir -p "$rt/bin" "$rt/sbin" "$rt/lib"
cp "$rroot/usr/bin/$PYTHON" "$rroot/usr/bin/cyclictest" "$rroot/usr/bin/oslat" "$rt/bin/"
ln -s "$PYTHON" "$rt/bin/python3"
cp "$rroot/usr/sbin/hwlatdetect" "$rroot/usr/sbin/rdmsr" "$rt/sbin/"
cp -a "$rroot/usr/lib/$PYTHON" "$rt/lib/"
for lib in libz.so.1 libexpat.so.1 libnuma.so.1; do
	cp -L "$rroot/usr/lib/x86_64-linux-gnu/$lib" "$rt/lib/"
done
rm -rf "$rroot"
for prog in "$rt/bin/$PYTHON" "$rt/bin/cyclictest" "$rt/bin/oslat" "$rt/sbin/rdmsr"; do
	"$PATCHELF" --set-interpreter "$PEER_DIR/lib/ld-linux-x86-64.so.2" \
		--force-rpath --set-rpath "$RT_DIR/lib:$PEER_DIR/lib" "$prog"
	if ! libs=$("$STAGE/peer/lib/ld-linux-x86-64.so.2" --library-path "$rt/lib:$STAGE/peer/lib" \
		--list "$prog" 2>&1) || grep -q 'not found' <<<"$libs" ||
		grep -E '=> /' <<<"$libs" | grep -vqE "=> ($rt|$STAGE/peer)/lib/"; then
		echo "$libs" >&2
		vm_die "${prog##*/} does not find all its libraries in rt-tests/lib and peer/lib"
	fi
done
# Run the unpacked python here, with the peer's loader.
rt_python() {
	"$STAGE/peer/lib/ld-linux-x86-64.so.2" --library-path "$rt/lib:$STAGE/peer/lib" \
		"$rt/bin/$PYTHON" "$@"
}
# The minimal library as byte code only (the initramfs is built for every
# run): compiled here, so that the guest does not compile it at each start,
# with its paths named as in the guest, and the sources dropped; the ssl and
# hashlib extensions (they need libssl) go too.  Of the codecs, only those
# of the C.UTF-8 locale the guest runs in and of ASCII and Latin-1 stay.
rt_python -m compileall -q -b -s "$rt" -p "$RT_DIR" "$pylib" ||
	vm_die "$PYTHON could not compile its library"
find "$pylib" -type f ! -name '*.pyc' -delete
find "$pylib/encodings" -name '*.pyc' ! -name __init__.pyc ! -name aliases.pyc \
	! -name utf_8.pyc ! -name utf_8_sig.pyc ! -name ascii.pyc ! -name latin_1.pyc -delete
if ! out=$(rt_python "$rt/sbin/hwlatdetect" --help 2>&1) || [[ $out != *--threshold* ]]; then
	echo "$out" >&2
	vm_die "hwlatdetect --help does not run with the unpacked $PYTHON"
fi

# --- done ------------------------------------------------------------------

for part in kernel-6.12 kernel-6.1 busybox bash bats patchelf peer rt-tests; do
	rm -rf "${VM_CACHE:?}/$part"
	mv "$STAGE/$part" "$VM_CACHE/$part"
done
# Drop downloads that no package of this run names.
for f in "$DEBS"/*.deb; do
	keep=0
	for name in "${!debfile[@]}"; do
		if [[ ${debfile[$name]} == "$f" ]]; then keep=1; fi
	done
	((keep)) || rm -f "$f"
done
{
	echo "format=$VM_CACHE_FORMAT"
	echo "extras=$VM_CACHE_EXTRAS"
	echo "archive=$archive"
	for name in $(printf '%s\n' "${!version[@]}" | sort); do
		echo "package=$name ${version[$name]}"
	done
} >"$VM_CACHE/ready"
# The package lists served only to choose; --refresh fetches them anew.
rm -rf "$APT/state/lists" "$APT/cache"
vm_log "cache ready: $VM_CACHE ($(du -sh "$VM_CACHE" | cut -f1))"
