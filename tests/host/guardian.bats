#!/usr/bin/env bats
# Kernel state is borrowed, never kept, whatever ends rtla: on this machine's
# kernel (no osnoise tracer) the sampler backend borrows one thing, its
# private tracefs instance. It writes nothing outside it (trace_clock,
# buffer sizes, tracing_cpumask, events and tracing_on are the instance's
# own: src/osnoise/sampler_trace.c). Whatever ends a run (any signal,
# SIGKILL, a crash), the instance must be gone within 1 s of the end, and
# no rtla process, the guardian included, left running. The tracer's
# global settings are tested the same way in the VM tier
# (tests/kernel/guest-*/25-osnoise-kill.bats). Needs root and tracefs.

load ../lib/helper

TRACING=/sys/kernel/tracing

setup() {
	needs_root "the sampler's tracefs instance"
	mountpoint -q "$TRACING" || mount -t tracefs nodev "$TRACING" 2>/dev/null ||
		skip "needs tracefs at $TRACING"
	T=$BATS_TEST_TMPDIR
	ulimit -c 0	# the crash signals dump no core here
	# every process of a run carries this tag, the guardian too (a fork):
	# other rtla runs on the machine are not ours to count
	TAG=guardian-bats-$$-$BATS_TEST_NUMBER
}

teardown() {
	local pid
	for pid in $(tagged); do
		kill -9 "$pid" 2>/dev/null || true
	done
	[ -z "${OWN:-}" ] || rmdir "$TRACING/instances/$OWN" 2>/dev/null || true
}

now_ms() {
	local t=${EPOCHREALTIME/./}
	echo $((t / 1000))
}

# start the sampler in the background, its pid in BG (fd 3 closed: bats waits on it)
start_run() {
	RTLA_GUARD_TAG=$TAG "$RTLA" hwnoise --backend sampler -c 0 -d 30s -q "$@" \
		>"$T/out" 2>"$T/err" 3>&- &
	BG=$!
}

# sleep a random 0 to $1 ms
nap_random() {
	local ms=$((RANDOM % $1))
	sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
}

# check_gone_within_1s PID END: poll until 1 s after END (the ms, taken by
# the caller right after the wait that reaped rtla PID) that the run's
# instance is gone and no process of it left; MS: when, after the end, a
# look saw it so (timed after the look, so a late look fails), also printed
check_gone_within_1s() {
	local inst=$TRACING/instances/rtla_sampler_$1 t0=$2 left gone
	while :; do
		left=$(tagged)
		gone=false
		if [ ! -e "$inst" ] && [ -z "$left" ]; then gone=true; fi
		MS=$(($(now_ms) - t0))
		if $gone && [ "$MS" -le 1000 ]; then
			echo "restored $MS ms after the end"
			return 0
		fi
		if [ "$MS" -ge 1000 ]; then
			echo "1 s after the end: instance $([ -e "$inst" ] && echo present || echo gone);" \
				"processes left: ${left:-none}"
			ps -o pid,ppid,stat,comm -p "${left:-1}" || true
			cat "$T/err"
			return 1
		fi
		sleep 0.005
	done
}

# kill_one SIGNAL: a run, the signal at a random point of its first 1.5 s, then the check
kill_one() {
	local sig=$1 at end
	start_run
	nap_random 1500
	# the instance exists: the run's signal handlers came before it
	SETUP=false
	[ ! -d "$TRACING/instances/rtla_sampler_$BG" ] || SETUP=true
	at=$(now_ms)
	kill -"$sig" "$BG"
	status=0
	wait "$BG" || status=$?
	end=$(now_ms)
	check_gone_within_1s "$BG" "$end" || { echo "SIG$sig"; return 1; }
	echo "# SIG$sig: ended $((end - at)) ms after the signal (status $status)," \
		"restored $MS ms after the end" >&3
}

@test "guardian: every signal that ends the run by default ends it through the teardown" {
	for sig in INT TERM HUP QUIT USR1 USR2 ALRM VTALRM PROF XCPU XFSZ PWR STKFLT IO RTMIN \
		RTMAX; do
		kill_one "$sig"
		# through the teardown: an exit status, not death by the signal (a
		# signal during the set-up ends the run with status 1, as Ctrl-C does;
		# one before the handlers were installed kills, harmlessly)
		! $SETUP || [ "$status" -le 1 ] ||
			{ echo "SIG$sig: exit status $status"; cat "$T/err"; false; }
	done
}

@test "guardian: a crash signal leaves the restore to the guardian" {
	for sig in SEGV BUS ILL FPE ABRT TRAP SYS; do
		kill_one "$sig"
		[ "$status" -gt 128 ] || { echo "SIG$sig: exit status $status"; false; }
	done
}

@test "guardian: SIGKILL at random points; the guardian removes the instance within 1 s" {
	local worst=0
	for _ in 1 2 3 4 5; do
		kill_one KILL
		[ "$status" -eq 137 ]
		[ "$MS" -le "$worst" ] || worst=$MS
	done
	echo "# SIGKILL: restored within $worst ms at worst" >&3
}

@test "guardian: SIGKILL to rtla's whole process group cannot reach the guardian" {
	RTLA_GUARD_TAG=$TAG setsid "$RTLA" hwnoise --backend sampler -c 0 -d 30s -q \
		>"$T/out" 2>"$T/err" 3>&- &
	BG=$!
	for _ in $(seq 100); do
		[ -d "$TRACING/instances/rtla_sampler_$BG" ] && break
		sleep 0.05
	done
	[ -d "$TRACING/instances/rtla_sampler_$BG" ]
	kill -KILL -- -"$BG"
	wait "$BG" || true
	end=$(now_ms)
	check_gone_within_1s "$BG" "$end"
	echo "# SIGKILL to the group: restored $MS ms after the end" >&3
}

@test "guardian: whoever reads rtla's output is not kept waiting by the guardian" {
	mkfifo "$T/pipe"
	cat "$T/pipe" >"$T/captured" &
	local reader=$!
	RTLA_GUARD_TAG=$TAG "$RTLA" hwnoise --backend sampler -c 0 -d 30s -q >"$T/pipe" 2>&1 3>&- &
	BG=$!
	for _ in $(seq 100); do
		[ -d "$TRACING/instances/rtla_sampler_$BG" ] && break
		sleep 0.05
	done
	kill -KILL "$BG"
	wait "$BG" || true
	# the 1 s counts from here, the end of rtla, not from after the reader's wait
	end=$(now_ms)
	# the reader sees end of file once the guardian is done, within 1 s
	for _ in $(seq 100); do
		kill -0 "$reader" 2>/dev/null || break
		sleep 0.01
	done
	! kill -0 "$reader" 2>/dev/null || { kill "$reader"; echo "the reader is still waiting"; false; }
	check_gone_within_1s "$BG" "$end"
	echo "# the reader's end of file came first; restored $MS ms after the end" >&3
}

@test "guardian: a reader that leaves (rtla | head) ends the run, which restores" {
	# -d 30s: only head leaving ends it sooner; timeout 20 is the hang guard
	run timeout 20 bash -c "RTLA_GUARD_TAG=$TAG '$RTLA' hwnoise --backend sampler -c 0 -d 30s \
		2>&1 | head -c 1"
	[ "$status" -ne 124 ] || { echo "rtla | head -c 1 did not end within 20 s"; false; }
	[ "$status" -eq 0 ]
	[ -z "$(tagged)" ]
}

@test "guardian: a user's instance that only looks like rtla's is never removed" {
	local pid=4000000
	while kill -0 "$pid" 2>/dev/null; do pid=$((pid + 1)); done
	OWN=rtla_sampler_$pid
	mkdir "$TRACING/instances/$OWN"
	run env RTLA_GUARD_TAG=$TAG "$RTLA" hwnoise --backend sampler -c 0 -d 1s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[ -d "$TRACING/instances/$OWN" ]
	[[ $output != *"$OWN"* ]]
}
