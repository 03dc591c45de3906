#!/bin/bash
# Fill the arm64 guest's download cache: bookworm-backports' 6.12 RT arm64
# kernel, arm64 busybox and bash, and trixie's arm64 rtla as the peer.
#
#   tests/kernel/fetch-arm64.sh [--refresh]
#
# The cache is ${RTLA_VM_CACHE:-/var/cache/rtla-vm}/arm64, a folder of its own
# beside the x86 guests' cache (whose format it leaves alone), with a ready
# file listing the package versions.  Packages come through apt with a
# private state, as in fetch.sh; a filled cache is used without the network.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"
# shellcheck source=../../scripts/apt-private.sh
. "$HERE/../../scripts/apt-private.sh"

refresh=0
for arg; do
	case $arg in
	--refresh) refresh=1 ;;
	-h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) vm_die "fetch-arm64.sh: unknown argument '$arg' (try --help)" ;;
	esac
done

CACHE=$VM_CACHE/arm64
ready() { [[ -f $CACHE/ready && -f $CACHE/kernel/Image ]]; }
if ((!refresh)) && ready; then
	exit 0
fi
mkdir -p "$CACHE" || vm_die "cannot create the cache folder $CACHE (set RTLA_VM_CACHE)"
exec 9>"$CACHE/.lock"
flock 9
if ((!refresh)) && ready; then
	exit 0
fi

APT=$CACHE/apt DEBS=$CACHE/debs STAGE=$CACHE/.stage
rm -rf "$STAGE"
mkdir -p "$APT/state/lists/partial" "$APT/cache" "$APT/empty" "$DEBS/partial" "$STAGE"
trap 'rm -rf "$STAGE"' EXIT
: >"$APT/state/status"
if [[ -n ${RTLA_VM_MIRROR:-} ]]; then
	archive=$RTLA_VM_MIRROR keyring=-
else
	found=$(find_archive) || vm_die "no Debian archive for bookworm or trixie in the apt sources; name one with RTLA_VM_MIRROR=URI"
	read -r archive keyring <<<"$found"
fi
signed=""
[[ $keyring != - ]] && signed="[signed-by=$keyring] "
for suite in bookworm bookworm-backports trixie; do
	echo "deb ${signed}$archive $suite main"
done >"$APT/sources.list"
private_apt_conf "$APT" "$DEBS" arm64 >"$APT/apt.conf"
export APT_CONFIG=$APT/apt.conf
vm_log "apt-get update (arm64, private state in $APT)"
if ! apt-get -q update >"$APT/update.log" 2>&1 || grep -qE '^(E|W): ' "$APT/update.log"; then
	cat "$APT/update.log" >&2
	vm_die "apt-get update against $archive failed"
fi

# The newest version of package $1 in suite $2.
newest_in() {
	apt-cache madison "$1" 2>/dev/null | awk -F'|' -v suite="$2" '{
		gsub(/^ +| +$/, "", $2)
		if ((" " $3) ~ (" " suite "/")) print $2
	}' | sort -V | tail -n1
}

kernel="" kv=""
while read -r name; do
	[[ $name =~ ^linux-image-6\.12\.[0-9]+\+deb12(\.[0-9]+)?-rt-arm64-unsigned$ ]] || continue
	v=$(newest_in "$name" bookworm-backports)
	[[ -n $v ]] || continue
	if [[ -z $kv ]] || dpkg --compare-versions "$v" gt "$kv"; then kernel=$name kv=$v; fi
done < <(apt-cache pkgnames linux-image-6.12 | sort)
[[ -n $kernel ]] || vm_die "bookworm-backports has no linux-image-6.12.*+deb12-rt-arm64-unsigned package"

declare -A version=([$kernel]=$kv) debfile=()
for entry in "busybox-static bookworm" "bash-static bookworm" "rtla trixie" "libtracefs1 trixie" \
	"libtraceevent1 trixie" "libc6 trixie" "libgcc-s1 trixie"; do
	read -r name suite <<<"$entry"
	v=$(newest_in "$name" "$suite")
	[[ -n $v ]] || vm_die "$suite has no arm64 package $name"
	version[$name]=$v
done
for name in "${!version[@]}"; do
	v=${version[$name]}
	debs=("$DEBS/${name}_${v//:/%3a}_"*.deb)
	if [[ ! -f ${debs[0]} ]]; then
		vm_log "downloading $name $v (arm64)"
		(cd "$DEBS" && apt-get -q download "$name=$v" >"$APT/download.log" 2>&1) || {
			cat "$APT/download.log" >&2
			vm_die "could not download $name $v (arm64)"
		}
		debs=("$DEBS/${name}_${v//:/%3a}_"*.deb)
	fi
	debfile[$name]=${debs[0]}
done

x() { dpkg-deb -x "${debfile[$1]}" "$2"; }

# The kernel ships a raw Image: qemu boots it as it is.
mkdir -p "$STAGE/kernel" "$STAGE/kdeb"
dpkg-deb --fsys-tarfile "${debfile[$kernel]}" | tar -x -C "$STAGE/kdeb" --wildcards './boot/*'
image=$(echo "$STAGE"/kdeb/boot/vmlinuz-*)
[[ -f $image ]] || vm_die "$kernel has no /boot/vmlinuz-*"
mv "$image" "$STAGE/kernel/Image"
mv "$STAGE"/kdeb/boot/config-* "$STAGE/kernel/config"
echo "${image##*/vmlinuz-}" >"$STAGE/kernel/release"
echo "$kernel $kv" >"$STAGE/kernel/package"

x busybox-static "$STAGE/bb"
mkdir -p "$STAGE/busybox"
mv "$STAGE/bb/bin/busybox" "$STAGE/busybox/busybox"
x bash-static "$STAGE/bs"
mkdir -p "$STAGE/bash"
mv "$STAGE/bs/bin/bash-static" "$STAGE/bash/bash"

# The peer: trixie's arm64 rtla with its libraries in one folder, its
# interpreter and rpath pointing there (patchelf from the x86 cache).
PATCHELF=$VM_CACHE/patchelf/usr/bin/patchelf
[[ -x $PATCHELF ]] || vm_die "no patchelf in $VM_CACHE (tests/kernel/fetch.sh fills it)"
proot=$STAGE/peer-root
for name in rtla libtracefs1 libtraceevent1 libc6 libgcc-s1; do
	x "$name" "$proot"
done
mkdir -p "$STAGE/peer/bin" "$STAGE/peer/lib"
cp "$proot/usr/bin/rtla" "$STAGE/peer/bin/rtla"
for lib in "$proot"/usr/lib/aarch64-linux-gnu/*.so*; do
	if [[ -f $lib ]]; then cp -L "$lib" "$STAGE/peer/lib/"; fi
done
"$PATCHELF" --set-interpreter /opt/peer/lib/ld-linux-aarch64.so.1 \
	--force-rpath --set-rpath /opt/peer/lib "$STAGE/peer/bin/rtla"
# Every library it names must be in the folder (its loader cannot run here).
for lib in $("$PATCHELF" --print-needed "$STAGE/peer/bin/rtla"); do
	[[ -f $STAGE/peer/lib/$lib ]] || vm_die "the arm64 peer rtla needs $lib, which its folder lacks"
done

for part in kernel busybox bash peer; do
	rm -rf "${CACHE:?}/$part"
	mv "$STAGE/$part" "$CACHE/$part"
done
for f in "$DEBS"/*.deb; do
	keep=0
	for name in "${!debfile[@]}"; do
		[[ ${debfile[$name]} == "$f" ]] && keep=1
	done
	((keep)) || rm -f "$f"
done
{
	echo "archive=$archive"
	for name in $(printf '%s\n' "${!version[@]}" | sort); do
		echo "package=$name ${version[$name]}"
	done
} >"$CACHE/ready"
rm -rf "$APT/state/lists" "$APT/cache"
vm_log "arm64 cache ready: $CACHE ($(du -sh "$CACHE" | cut -f1))"
