#!/usr/bin/env bats
# The Makefile's cross build (make CROSS_COMPILE=...), read with make -n:
# the compiler, ar and pkg-config follow the prefix and the sysroot, the
# objects go to a tree of their own, and what the user sets is kept.

bats_require_minimum_version 1.5.0

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	tmp=$(mktemp -d)
}

teardown() {
	rm -rf "$tmp"
}

# make -n of the library in tree $tmp/b, with the arguments given
dry() {
	make -n -C "$top" --no-print-directory O="$tmp/b" "$@" "$tmp/b/librtla.a" 2>&1
}

@test "CROSS_COMPILE=aarch64-linux-gnu-: gcc with the sysroot, the prefix's ar, pkg-config in the sysroot" {
	run -0 dry CROSS_COMPILE=aarch64-linux-gnu- RTLA_CROSS_CACHE="$tmp/cache"
	[[ $output == *"scripts/deps.sh cross-arm64"* ]]
	[[ $output == *"aarch64-linux-gnu-gcc --sysroot=$tmp/cache/arm64/sysroot "*" -c -o $tmp/b/src/msg.o src/msg.c"* ]]
	[[ $output == *"aarch64-linux-gnu-ar rcs $tmp/b/librtla.a"* ]]
	[[ $output == *"PKG_CONFIG_SYSROOT_DIR=$tmp/cache/arm64/sysroot PKG_CONFIG_LIBDIR=$tmp/cache/arm64/sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:"*" pkg-config --exists"* ]]
}

@test "a cross build's own tree is build-arm64 when O is not given" {
	run -0 make -n -B -C "$top" --no-print-directory CROSS_COMPILE=aarch64-linux-gnu- \
		RTLA_CROSS_CACHE="$tmp/cache" build-arm64/librtla.a
	[[ $output == *"-c -o build-arm64/src/msg.o"* ]]
}

@test "AR, CC and PKG_CONFIG given by the user are kept" {
	run -0 dry CROSS_COMPILE=aarch64-linux-gnu- RTLA_CROSS_CACHE="$tmp/cache" AR=my-ar CC=my-cc PKG_CONFIG=my-pc
	[[ $output == *"my-ar rcs"* ]]
	[[ $output == *"my-cc "*" -c -o $tmp/b/src/msg.o"* ]]
	[[ $output == *"my-pc --exists"* ]]
	[[ $output != *"aarch64-linux-gnu-ar"* ]]
}

@test "a native build uses the host's ar and pkg-config, no sysroot" {
	run -0 dry
	[[ $output != *--sysroot* && $output != *PKG_CONFIG_SYSROOT_DIR* && $output != *deps.sh* ]]
	[[ $output == *"ar rcs $tmp/b/librtla.a"* ]]
}
