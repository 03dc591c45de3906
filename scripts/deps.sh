#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages a goal needs: "build" (compile rtla),
# "check" (build + every test tier), "bench" (check + the peers benchmarked
# against), "fuzz" (build + clang and its libFuzzer runtime), "deb" (build +
# the tools of make deb). Silent when everything is present; without root it
# prints the exact apt-get line and fails, so nothing is half-installed.
set -eu

build="gcc make pkg-config libtracefs-dev libtraceevent-dev libproc2-dev
libncurses-dev libcap-dev libsmartcols-dev python3-docutils"
# rtla mdwe's BPF reader: clang compiles it against libbpf's headers and
# bpftool makes its light skeleton (no libbpf at run time); zlib: rtla capture
build="$build clang bpftool libbpf-dev zlib1g-dev"
check="$build bats tmux libcap2-bin util-linux procps psmisc python3 cpio xz-utils zstd
qemu-system-x86 qemu-utils bash-completion man-db libfuse3-3"
# clang builds the fuzz targets; check runs each one briefly
check="$check clang libclang-rt-dev"
# the consumers of the latency gate's files: promtool (in prometheus), a real
# node_exporter scraped with curl, xmllint for the JUnit schema
check="$check prometheus prometheus-node-exporter curl libxml2-utils python3-yaml"
# rtla report's pages read as a person reads them: headless Chromium renders
# them, python3-pil reads the screenshots' pixels (tests/host/report.bats)
check="$check chromium python3-pil"
bench="$check libcap-ng-utils hyperfine rt-tests valgrind"
fuzz="$build clang libclang-rt-dev"
# the arm64 VM tier of check: qemu, and the cross build of the board bundle
# (dpkg-dev: dpkg-source unpacks util-linux's source for the static libsmartcols)
check="$check qemu-system-arm gcc-aarch64-linux-gnu dpkg-dev"
# the container image: umoci builds it; podman (with runc) runs it in the package tier
check="$check umoci podman runc jq"
# ccache: the many trees of check (host, ASan, fuzz, cross, mutants) compile each unit once
check="$check ccache"
# the package tier: the riscv64 and armhf bundles, run by qemu-riscv64 and
# qemu-arm by name (qemu-user; never qemu-user-static or qemu-user-binfmt,
# which register binfmt_misc handlers: a global kernel setting)
check="$check gcc-riscv64-linux-gnu gcc-arm-linux-gnueabihf qemu-user file"
# make deb: Debian's tools that build the package (bash-completion: its
# completions folder); the package tier installs it into a bookworm root made
# by mmdebstrap and runs lintian on it
deb="$build debhelper dpkg-dev bash-completion lintian mmdebstrap"
check="$check debhelper lintian mmdebstrap"
cross_arch=

case "${1:-build}" in
build) want=$build ;;
check) want=$check ;;
bench) want=$bench ;;
fuzz) want=$fuzz ;;
deb) want=$deb ;;
cross-arm64 | cross-armhf | cross-riscv64)
	cross_arch=${1#cross-}
	case $cross_arch in
	arm64) triplet=aarch64-linux-gnu ;;
	armhf) triplet=arm-linux-gnueabihf ;;
	riscv64) triplet=riscv64-linux-gnu ;;
	esac
	want="$build gcc-$triplet dpkg-dev" ;;
*) echo "usage: $0 build|check|bench|fuzz|deb|cross-arm64|cross-armhf|cross-riscv64" >&2; exit 1 ;;
esac
# check also cross-builds the arm64 bundle for its arm64 VM guest.
[ "${1:-build}" = check ] && cross_arch=arm64

cross_sysroot() {
	[ -z "$cross_arch" ] || exec "$(dirname "$0")/cross-sysroot.sh" "$cross_arch"
}

missing=
for pkg in $want; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
	[ "$status" = installed ] || missing="$missing $pkg"
done
if [ -z "$missing" ]; then
	cross_sysroot
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "rtla needs these Debian packages; run as root:" >&2
	echo "  apt-get install -y$missing" >&2
	exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# a fresh machine has no package lists yet; refresh them once if a package is unknown
for pkg in $missing; do
	if ! apt-cache show "$pkg" >/dev/null 2>&1; then
		apt-get update -qq
		break
	fi
done
apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
	apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null
}
cross_sysroot
