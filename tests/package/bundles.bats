#!/usr/bin/env bats
# The board bundles of "make packages" (make bundle-ARCH), each run under
# qemu-user with nothing from the host: an empty environment and an empty
# -L root, so a bundle that needs a loader or a library of the host fails.
# qemu-ARCH is called by name: no binfmt_misc handler is registered or used.

load ../lib/helper
bats_require_minimum_version 1.5.0

VERSION=$(cat "$TOP/VERSION")

setup() {
	empty=$(mktemp -d)
}

teardown() {
	rmdir "$empty"
}

# bundle_of ARCH: the bundle folder that make bundle-ARCH leaves beside $RTLA's tree
bundle_of() {
	echo "$(dirname "$RTLA")-$1/bundle/rtla-$VERSION-$1"
}

qemu_of() {
	case $1 in
	arm64) echo qemu-aarch64 ;;
	armhf) echo qemu-arm ;;
	riscv64) echo qemu-riscv64 ;;
	esac
}

# machine_of ARCH: what file(1) says of that machine
machine_of() {
	case $1 in
	arm64) echo 'ELF 64-bit LSB executable, ARM aarch64' ;;
	armhf) echo 'ELF 32-bit LSB executable, ARM, EABI5' ;;
	riscv64) echo 'ELF 64-bit LSB executable, UCB RISC-V' ;;
	esac
}

# static_for ARCH FILE: FILE is a static, stripped executable of ARCH
static_for() {
	local what
	what=$(file -b "$2") || return 1
	[[ $what == "$(machine_of "$1")"* ]] || { echo "not $1: $what" >&2; return 1; }
	[[ $what == *"statically linked"* ]] || { echo "not static: $what" >&2; return 1; }
	[[ $what == *", stripped"* ]] || { echo "not stripped: $what" >&2; return 1; }
}

# board ARCH ARGS...: the bundle's rtla under qemu-user, nothing of the host's
board() {
	local arch=$1
	shift
	env -i timeout 60 "$(qemu_of "$arch")" -L "$empty" "$(bundle_of "$arch")/rtla" "$@"
}

# help_of_every_command ARCH: --help of each row of src/main.c's table;
# prints the commands that failed or printed no usage
help_of_every_command() {
	local names name out bad=""
	names=$(command_names) || return 1
	while read -r name; do
		out=$(board "$1" "$name" --help 2>&1) && [[ $out == *"sage"* ]] || bad="$bad $name"
	done <<<"$names"
	echo "$bad"
}

bundle_is_static() {
	[ -x "$(bundle_of "$1")/rtla" ] || { echo "no bundle $(bundle_of "$1"): make bundle-$1 (make packages)" >&2; return 1; }
	static_for "$1" "$(bundle_of "$1")/rtla"
	for l in osnoise hwnoise timerlat; do
		[ "$(readlink "$(bundle_of "$1")/$l")" = rtla ] || { echo "no link $l -> rtla" >&2; return 1; }
	done
	[ -f "$(bundle_of "$1").tar.gz" ]
}

each_help() {
	local bad
	bad=$(help_of_every_command "$1")
	[ -z "${bad// /}" ] || { echo "--help failed under qemu for:$bad" >&2; return 1; }
	run board "$1" --help
	[ "$status" -eq 0 ]
	[[ $output == *"Usage"* || $output == *"usage"* ]]
}

capdump() {
	run board "$1" capdump 1
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "PID PPID USER"* ]]
	[[ ${lines[1]} == *" 1 "* ]]
}

dhry() {
	run board "$1" dhry -c 0 -d 1s
	echo "status $status: $output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == *DMIPS* ]]
	# CPU 0's row: a DMIPS figure (the 6th field) above zero
	awk '$1 == "0" && $6 + 0 > 0 { found = 1 } END { exit !found }' <<<"$output"
}

features() {
	run board "$1" features
	[ "$status" -eq 0 ]
	[[ $output == *"dhry"* ]]
}

@test "arm64 bundle: static, stripped, aarch64, with its links and .tar.gz" { bundle_is_static arm64; }
@test "arm64 bundle: --help of every command under qemu-aarch64" { each_help arm64; }
@test "arm64 bundle: capdump 1" { capdump arm64; }
@test "arm64 bundle: dhry -c 0 -d 1s gives a DMIPS figure" { dhry arm64; }
@test "arm64 bundle: features" { features arm64; }

@test "armhf bundle: static, stripped, 32-bit ARM EABI5, with its links and .tar.gz" { bundle_is_static armhf; }
@test "armhf bundle: --help of every command under qemu-arm" { each_help armhf; }
@test "armhf bundle: capdump 1" { capdump armhf; }
@test "armhf bundle: dhry -c 0 -d 1s gives a DMIPS figure" { dhry armhf; }
@test "armhf bundle: features" { features armhf; }

@test "riscv64 bundle: static, stripped, RISC-V, with its links and .tar.gz" { bundle_is_static riscv64; }
@test "riscv64 bundle: --help of every command under qemu-riscv64" { each_help riscv64; }
@test "riscv64 bundle: capdump 1" { capdump riscv64; }
@test "riscv64 bundle: dhry -c 0 -d 1s gives a DMIPS figure" { dhry riscv64; }
@test "riscv64 bundle: features" { features riscv64; }

# The checks above catch a broken bundle: the host's own rtla is dynamic and
# of another machine, and a board without its loader cannot run it.
@test "a dynamic rtla fails the bundle check" {
	run ! static_for arm64 "$RTLA"
	[[ $output == *"not arm64"* ]]
	mkdir -p "$BATS_TEST_TMPDIR/dyn"
	aarch64-linux-gnu-gcc --sysroot="${RTLA_CROSS_CACHE:-/var/cache/rtla-cross}/arm64/sysroot" -no-pie -o "$BATS_TEST_TMPDIR/dyn/rtla" -x c - <<<'int main(void) { return 0; }'
	aarch64-linux-gnu-strip "$BATS_TEST_TMPDIR/dyn/rtla"
	run ! static_for arm64 "$BATS_TEST_TMPDIR/dyn/rtla"
	[[ $output == *"not static"* ]]
	run ! env -i qemu-aarch64 -L "$empty" "$BATS_TEST_TMPDIR/dyn/rtla"
}
