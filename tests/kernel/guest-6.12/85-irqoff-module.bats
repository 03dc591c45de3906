#!/usr/bin/env bats
# The kernel's interrupts-off test module, preemptirq_delay_test (built by
# modules-build.sh), as guest-lib/irqoff.bash drives it, seen by rtla
# timerlat: a window with interrupts off on CPU 1 is an IRQ latency on CPU 1
# as long as the window; a window with only preemption off is a thread
# latency, and no IRQ latency.
#
# The window is 40 ms, not a few: under TCG the IRQ latency of an idle guest
# already reaches 4-9 ms now and then (once in a while more than 10 ms), so a 2 ms
# window is lost in it.  By construction the IRQ latency of an interrupts-off
# window is at least the window less timerlat's period (1 ms); the tests ask
# for 3/4 of it.  CPU 0 is measured and shown, not judged: single-threaded TCG
# runs both vCPUs on one host thread, and one that spins with interrupts off
# can hold the other back: in a 40 ms window on CPU 1, CPU 0's IRQ latency
# reached 26-40 ms in some runs and stayed at 4 ms in others (in preemption-off
# windows, never more than its usual 4-9 ms).  About 10 s.

load /vm/lib/irqoff

bats_require_minimum_version 1.5.0

WINDOW_US=40000

setup_file() {
	irqoff_setup_file
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

teardown() {
	if [ -n "${pid:-}" ]; then kill "$pid" 2>/dev/null || true; fi
	irqoff_unload
}

# window_run MODE: rtla timerlat top on CPUs 0 and 1 for 3 s, and in it two
# windows of WINDOW_US in MODE on CPU 1 (the load's and a trigger's)
window_run() {
	"$RTLA" timerlat top -c 0,1 -d 3 -q >out.txt 2>err.txt &
	pid=$!
	# the workers come with the set-up; the measuring starts right after
	for _ in $(seq 50); do
		grep -qsx timerlatu/1 /proc/[0-9]*/comm && break
		sleep 0.1
	done
	sleep 0.5
	irqoff_load 1 "$WINDOW_US" "$1"
	irqoff_trigger
	wait "$pid"
	pid=""
	irqoff_unload
	cat out.txt err.txt
}

# latency_max CPU irq|thread: the max column of that context in CPU's row of
# timerlat top's table (out.txt)
latency_max() {
	local col=12
	if [ "$2" = irq ]; then col=7; fi
	awk -v cpu="$1" -v col="$col" '$1 == cpu && $2 ~ /^#/ { print $col }' out.txt
}

@test "preemptirq_delay_test loads with the parameters given, takes a trigger and unloads" {
	irqoff_load 1 1000
	irqoff_loaded
	grep -qx 1 /sys/module/preemptirq_delay_test/parameters/cpu_affinity
	grep -qx 1000 /sys/module/preemptirq_delay_test/parameters/delay
	grep -qx irq /sys/module/preemptirq_delay_test/parameters/test_mode
	irqoff_trigger
	irqoff_load 1 1000 preempt
	grep -qx preempt /sys/module/preemptirq_delay_test/parameters/test_mode
	irqoff_unload
	run ! irqoff_loaded
	[ ! -e /sys/kernel/preemptirq_delay_test ]
	run ! irqoff_trigger
}

@test "interrupts off for 40 ms on CPU 1: timerlat's IRQ latency on CPU 1 is as long" {
	window_run irq
	irq=$(latency_max 1 irq)
	echo "# irq window: CPU 1 IRQ max $irq us; CPU 0 IRQ max $(latency_max 0 irq) us (not judged)" >&3
	[ "$irq" -ge $((WINDOW_US * 3 / 4)) ]
}

@test "preemption off for 40 ms on CPU 1: the thread latency is as long, the IRQ latency is not" {
	window_run preempt
	irq=$(latency_max 1 irq)
	thread=$(latency_max 1 thread)
	echo "# preempt window: CPU 1 IRQ max $irq us, thread max $thread us" >&3
	[ "$thread" -ge $((WINDOW_US * 3 / 4)) ]
	[ "$irq" -lt $((WINDOW_US * 3 / 4)) ]
}
