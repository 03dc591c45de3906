#!/usr/bin/env bats
# The arm64 board: Debian's 6.12 RT arm64 kernel under -M virt, a busybox
# initramfs with only the bundle (/opt/rtla: one static rtla and its
# osnoise/hwnoise/timerlat links), no /run, no /dev/shm, no /etc/passwd, TERM=dumb.
# trixie's arm64 rtla 6.12 is the peer.

load /vm/lib/noise
bats_require_minimum_version 1.5.0

B=/opt/rtla

@test "the board is one: the bundle alone, no /run, no /etc/passwd, an arm64 kernel" {
	[ "$(uname -m)" = aarch64 ]
	[ ! -e /run ]
	[ ! -e /dev/shm ]
	[ ! -e /etc/passwd ]
	[ "$(ls "$B")" = "$(printf '%s\n' hwnoise osnoise rtla timerlat)" ]
	run "$B/rtla" -V
	[ "$status" -eq 0 ]
}

@test "--help of every command, from the bundle and through its links" {
	local c cmds
	# every command rtla --help lists, and the noise tools' modes
	cmds=$("$B/rtla" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
	[[ $cmds == *hwnoise*dhry*capdump*mdwe*features* ]]
	for c in $cmds "osnoise top" "osnoise hist" "hwnoise hist" "timerlat top" "timerlat hist"; do
		# shellcheck disable=SC2086 # "osnoise top" is two words
		run -0 "$B/rtla" $c --help
		[[ ${lines[0]} == *rtla* || ${lines[0]} == *" version "* ]] ||
			{ echo "rtla $c --help: ${lines[0]}"; false; }
	done
	run -0 "$B/hwnoise" --help
	[[ ${lines[0]} == "rtla hwnoise:"* ]]
	run -0 "$B/osnoise" --help
	[[ ${lines[0]} == *osnoise* ]]
	run -0 "$B/timerlat" --help
	[[ ${lines[0]} == "timerlat version "* ]]
}

@test "hwnoise on the real tracer: the peer's header, upstream's rows, state restored, record in /tmp/rtla" {
	local before
	unusual_settings
	before=$(snapshot)
	run -0 rtla-peer hwnoise -c 0 -d 2s -q
	peer=("${lines[@]}")
	[ "$before" = "$(snapshot)" ] || default_settings
	before=$(snapshot)
	run -0 "$B/hwnoise" -c 0 -d 2s -q
	printf '%s\n' "${lines[@]}"
	[ "${lines[0]}" = "${peer[0]}" ]
	[ "${lines[2]}" = "${peer[2]}" ]
	[[ ${lines[3]} =~ $HW_ROW ]]
	assert_state_unchanged "$before"
	# no /run, no /dev/shm: the record's folder is /tmp/rtla
	[ -d /tmp/rtla ]
	[ ! -e /run ]
}

@test "osnoise top on the real tracer: the peer's header, state restored" {
	local before
	run -0 rtla-peer osnoise top -c 1 -d 2s -q
	peer=("${lines[@]}")
	before=$(snapshot)
	run -0 "$B/rtla" osnoise top -c 1 -d 2s -q
	[ "${lines[0]}" = "${peer[0]}" ]
	[ "${lines[2]}" = "${peer[2]}" ]
	[[ ${lines[3]} =~ $OS_ROW ]]
	assert_state_unchanged "$before"
}

@test "timerlat on the board's tracer, through its link: the peer's header, user workers, state restored" {
	local before
	run -0 rtla-peer timerlat top -c 1 -d 2s -q
	peer=("${lines[@]}")
	before=$(snapshot)
	run -0 "$B/timerlat" top -c 1 -d 2s -q
	printf '%s\n' "${lines[@]}"
	[ "${lines[0]}" = "${peer[0]}" ]
	[ "${lines[2]}" = "${peer[2]}" ]
	[[ ${lines[3]} == "  1 #"* ]]
	[[ ${lines[5]} == "ALL #"* ]]
	assert_state_unchanged "$before"
	# a stop: its line and the analysis, exit 2
	run -2 "$B/rtla" timerlat hist -c 1 -d 20s -k -T 1
	[[ $output == *$'\ntimerlat hit stop tracing\n## CPU 1 hit stop tracing, analyzing it ##\n'* ]]
	assert_state_unchanged "$before"
}

@test "timerlat's sampler backend on the board: both columns from the arm64 events, a stop explained" {
	local before
	before=$(snapshot)
	run --separate-stderr -0 "$B/timerlat" top --backend sampler -c 1 -d 2s -q
	printf '%s\n' "${lines[@]}" "$stderr"
	[[ ${lines[0]} == *"Timer Latency, sampler backend: IRQ at hrtimer_expire_entry"* ]]
	# IRQ latencies paired from hrtimer_start/hrtimer_expire_entry: a count and figures
	[[ ${lines[3]} =~ ^"  1 #"[1-9][0-9]*" " ]]
	[[ ${lines[3]} != *" - "* ]]
	[[ $stderr == *"sampler backend: wake-up latency measured from user space"* ]]
	# a stop: the explanation of the wake-up that hit it, with its causes
	run -2 "$B/rtla" timerlat top --backend sampler -c 1 -d 20s -q -T 1
	[[ $output == *$'\ntimerlat hit stop tracing\n## CPU 1 hit stop tracing, analyzing it ##\n'* ]]
	[[ $output == *"What the CPU did meanwhile:"* ]]
	[[ $output == *"Thread latency:"* ]]
	assert_state_unchanged "$before"
	run -0 ls /sys/kernel/tracing/instances
	[[ $output != *rtla_timerlat_sampler_* ]]
}

@test "no /run, no /dev/shm, a read-only /tmp: the record goes to a /run/rtla made on the root" {
	local before
	rm -rf /tmp/rtla
	before=$(snapshot)
	# /tmp read-only in a mount namespace of the run's own
	run -0 unshare -m sh -c "mount -t tmpfs -o ro none /tmp && exec $B/rtla hwnoise -c 0 -d 1s -q"
	[ -d /run/rtla ]
	[ ! -e /tmp/rtla ]
	rm -rf /run
	assert_state_unchanged "$before"
}

@test "dhry: DMIPS and DMIPS/MHz on both CPUs, no progress line for TERM=dumb" {
	run --separate-stderr -0 env TERM=dumb "$B/rtla" dhry -i 200000 -J
	[[ $output == *'"dmips"'* ]]
	[[ $stderr != *$'\r'* ]]
}

@test "capdump: every process, the uid where no /etc/passwd names it" {
	run -0 "$B/rtla" capdump -a
	[[ ${lines[0]} == *CAPEFF* ]]
	local re=$'\n'' +1 +0 +0 '
	[[ $output =~ $re ]]
}

@test "mdwe on arm64: the BPF reader (CO-RE) reads MDWE of a process run under it" {
	"$B/rtla" mdwe run -- sleep 61 &
	p=$!
	for _ in $(seq 100); do
		[ "$(cat "/proc/$p/comm")" = sleep ] && break
		sleep 0.05
	done
	run -0 "$B/rtla" mdwe --raw -n -o PID,COMMAND,MDWE,MDWE_FLAGS "$p" 1
	kill "$p"
	echo "$output"
	[ "${lines[0]}" = "$p sleep refuse-exec-gain 1" ]
	[[ ${lines[1]} == "1 "*" - 0" ]]
}

@test "mdwe selftest and features on the arm64 kernel" {
	run -0 "$B/rtla" mdwe selftest
	run -0 "$B/rtla" features -g tracing
	[[ $output == *osnoise* ]]
}

@test "the sampler on arm64 names its clock in the trace: CNTVCT_EL0, its tick, ns per loop" {
	run -2 "$B/rtla" hwnoise --backend sampler -c 0 -d 5s -q -s 1 --trace=/tmp/smp.txt
	grep -E '^# spinner clock: CLOCK_MONOTONIC_RAW \(CNTVCT_EL0 at [0-9.]+ MHz: a tick is [0-9.]+ ns\)' /tmp/smp.txt
	grep -E '^# cpu 0: .* [0-9.]+ ns/iteration$' /tmp/smp.txt
}
