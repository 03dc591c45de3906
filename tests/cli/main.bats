#!/usr/bin/env bats
# The rtla binary: help, version, dispatch, aliases, exit codes.

load ../lib/helper
bats_require_minimum_version 1.5.0

COMMANDS="osnoise, hwnoise, timerlat, hwlat, dhry, capdump, mdwe, parport, damos, features, capture, compare, report, help"

setup() {
	tmp=$(mktemp -d)
}

teardown() {
	rm -rf "$tmp"
}

@test "--help lists every command of the table with its summary" {
	table=$(command_table)
	run --separate-stderr "$RTLA" --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "${lines[0]}" == "rtla: real-time analysis"* ]]
	# the rows between "Commands:" and the blank line after them, as NAME<TAB>SUMMARY
	listed=$(sed -n '/^Commands:$/,/^$/{/^  [^ ]/s/^  \([^ ]*\)  *\(.*\)$/\1\t\2/p}' <<<"$output")
	echo "--help lists:"
	echo "$listed"
	echo "the table in src/main.c has:"
	echo "$table"
	[ "$listed" = "$table" ]
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

@test "rtla's start maps no library it never calls: libproc2 from its archive, no libsystemd" {
	run readelf -d "$RTLA"
	[ "$status" -eq 0 ]
	[[ $output == *"(NEEDED)"*"libtracefs.so"* ]]
	[[ $output != *"libproc2.so"* ]]
	[[ $output != *"libsystemd.so"* ]]
	# and the listing libproc2 makes still finds the processes
	run "$RTLA" capdump -a --method proc --raw -n -o PID
	[ "$status" -eq 0 ]
	[[ $'\n'$output$'\n' == *$'\n1\n'* ]]
}

@test "no command: one line on stderr naming the commands, exit 1" {
	run --separate-stderr "$RTLA"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "rtla: no command given (commands: $COMMANDS); see 'rtla --help'" ]
}

@test "an unknown command: one line naming the closest command, exit 1" {
	run --separate-stderr "$RTLA" hlep
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "rtla: unknown command: 'hlep' (did you mean 'help'?)" ]
	# no likely typo: the commands instead of a guess
	run --separate-stderr "$RTLA" version
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla: unknown command: 'version' (commands: $COMMANDS)" ]
	# an option before the command belongs after it
	run --separate-stderr "$RTLA" --bogus
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "rtla: unknown option: --bogus (give it after the command)" ]
}

@test "help of an unknown command fails with exit 1" {
	run --separate-stderr "$RTLA" help nosuchcommand
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "rtla: unknown command: 'nosuchcommand' (commands: $COMMANDS)" ]
}

@test "--sysroot must be an existing directory" {
	run --separate-stderr "$RTLA" --sysroot "$tmp/missing" --help
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "rtla: --sysroot: $tmp/missing: No such file or directory" ]
	run --separate-stderr "$RTLA" --sysroot
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla: option needs an argument: --sysroot" ]
	run --separate-stderr "$RTLA" --sysroot '' --help
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == "rtla: --sysroot: empty directory name"* ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	run --separate-stderr "$RTLA" --sysroot "$tmp" --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "writing to a full disk is an error, not silence" {
	for opt in --help -V; do
		run --separate-stderr sh -c "'$RTLA' $opt > /dev/full"
		[ "$status" -eq 1 ]
		[ "$stderr" = "rtla: write error: No space left on device" ]
	done
}

@test "writing to a closed pipe ends quietly, with the command's exit status" {
	# the reader is gone before rtla writes: no message, no death by SIGPIPE
	for args in --help "capdump --all"; do
		run --separate-stderr bash -c "set -o pipefail; (sleep 0.5; exec '$RTLA' $args) | true"
		echo "rtla $args | true: status $status, stderr [$stderr]"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
	done
	# a failing command keeps its status and its own message, nothing about the pipe
	RTLA_DHRY_FAULT_CPU=0 run --separate-stderr bash -c \
		"set -o pipefail; (sleep 0.5; exec '$RTLA' dhry -i 1000 -c 0) | true"
	echo "failing dhry | true: status $status, stderr [$stderr]"
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "${stderr_lines[@]}" | grep -v '^rtla dhry: warning: ')" = \
	  "rtla dhry: CPU 0: FAILED: Int_Glob: 6, should be 5" ]
}

@test "make install puts rtla and the osnoise/hwnoise/timerlat symlinks under DESTDIR, uninstall removes them" {
	top=$BATS_TEST_DIRNAME/../..
	run make -C "$top" -s install DESTDIR="$tmp/root" PREFIX=/usr O="$(dirname "$RTLA")"
	[ "$status" -eq 0 ]
	[ -x "$tmp/root/usr/bin/rtla" ]
	[ "$(readlink "$tmp/root/usr/bin/osnoise")" = rtla ]
	[ "$(readlink "$tmp/root/usr/bin/hwnoise")" = rtla ]
	[ "$(readlink "$tmp/root/usr/bin/timerlat")" = rtla ]
	run make -C "$top" -s uninstall DESTDIR="$tmp/root" PREFIX=/usr O="$(dirname "$RTLA")"
	[ "$status" -eq 0 ]
	[ ! -e "$tmp/root/usr/bin/rtla" ]
	[ ! -L "$tmp/root/usr/bin/hwnoise" ]
	[ ! -L "$tmp/root/usr/bin/timerlat" ]
}
