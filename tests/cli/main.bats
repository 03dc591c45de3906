#!/usr/bin/env bats
# The rtla binary: help, version, dispatch, aliases, exit codes.

load helper

setup() {
	tmp=$(mktemp -d)
}

teardown() {
	rm -rf "$tmp"
}

@test "--help lists every command of the table with its summary" {
	run "$RTLA" --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "rtla: real-time analysis"* ]]
	[[ "$output" == *"  help       show the help of a command"* ]]
}

@test "help without a command is the same as --help" {
	run "$RTLA" help
	[ "$status" -eq 0 ]
	help_out=$output
	run "$RTLA" --help
	[ "$output" = "$help_out" ]
}

@test "--version and -V print the version from VERSION" {
	run "$RTLA" --version
	[ "$status" -eq 0 ]
	[ "$output" = "rtla $(cat "$BATS_TEST_DIRNAME/../../VERSION")" ]
	run "$RTLA" -V
	[ "$output" = "rtla $(cat "$BATS_TEST_DIRNAME/../../VERSION")" ]
}

@test "no command: usage on stderr, exit 1" {
	run "$RTLA"
	[ "$status" -eq 1 ]
	[[ "$output" == *"Usage: rtla"* ]]
}

@test "an unknown command: one line naming the closest command, exit 1" {
	run "$RTLA" hlep
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"unknown command 'hlep'"*"'help'"* ]]
}

@test "help of an unknown command fails with exit 1" {
	run "$RTLA" help nosuchcommand
	[ "$status" -eq 1 ]
	[[ "$output" == *"unknown command 'nosuchcommand'"* ]]
}

@test "--sysroot must be an existing directory" {
	run "$RTLA" --sysroot "$tmp/missing" --help
	[ "$status" -eq 1 ]
	[[ "$output" == *"--sysroot $tmp/missing: No such file or directory"* ]]
	run "$RTLA" --sysroot
	[ "$status" -eq 1 ]
	[[ "$output" == *"--sysroot needs a directory"* ]]
	run "$RTLA" --sysroot "$tmp" --help
	[ "$status" -eq 0 ]
}

@test "writing to a full disk is an error, not silence" {
	run sh -c "'$RTLA' --help > /dev/full"
	[ "$status" -eq 1 ]
	[[ "$output" == *"write error"* ]]
}

@test "writing to a closed pipe is an error" {
	# the reader is gone before rtla writes: EPIPE, not a silent death by SIGPIPE
	run bash -c "set -o pipefail; (sleep 0.5; exec '$RTLA' --help) | true"
	[ "$status" -eq 1 ]
}

@test "make install puts rtla and the osnoise/hwnoise symlinks under DESTDIR, uninstall removes them" {
	top=$BATS_TEST_DIRNAME/../..
	run make -C "$top" -s install DESTDIR="$tmp/root" PREFIX=/usr O="$(dirname "$RTLA")"
	[ "$status" -eq 0 ]
	[ -x "$tmp/root/usr/bin/rtla" ]
	[ "$(readlink "$tmp/root/usr/bin/osnoise")" = rtla ]
	[ "$(readlink "$tmp/root/usr/bin/hwnoise")" = rtla ]
	run make -C "$top" -s uninstall DESTDIR="$tmp/root" PREFIX=/usr O="$(dirname "$RTLA")"
	[ "$status" -eq 0 ]
	[ ! -e "$tmp/root/usr/bin/rtla" ]
	[ ! -L "$tmp/root/usr/bin/hwnoise" ]
}
