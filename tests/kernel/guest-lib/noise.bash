# Helpers of the guest tests of osnoise top and hwnoise (loaded with
# `load /vm/lib/noise`): kernel-state snapshots and upstream's table format.
# shellcheck shell=bash

T=/sys/kernel/tracing

# the helpers that loop run without bats' per-command trap (untraced.bash)
. /vm/lib/untraced.bash

# Every setting an osnoise run may touch, and the instances that exist.
snapshot() {
	local f
	for f in osnoise/cpus osnoise/runtime_us osnoise/period_us osnoise/stop_tracing_us \
		osnoise/stop_tracing_total_us osnoise/options tracing_thresh current_tracer tracing_on; do
		if [ -e "$T/$f" ]; then echo "$f=$(cat "$T/$f")"; fi
	done
	echo "instances=$(ls "$T/instances" | tr '\n' ' ')"
	echo "osnoise-threads=$(grep -l '^osnoise/' /proc/[0-9]*/comm 2>/dev/null | wc -l)"
	# timerlat: its kernel threads, rtla's workers, the PM QoS request, the idle states
	echo "timerlat-threads=$(grep -l '^timerlat/' /proc/[0-9]*/comm 2>/dev/null | wc -l)"
	echo "timerlatu=$(grep -l '^timerlatu/' /proc/[0-9]*/comm 2>/dev/null | wc -l)"
	# hwlat: its global settings and its kernel threads
	for f in "$T"/hwlat_detector/*; do
		if [ -f "$f" ]; then echo "${f#"$T"/}=$(cat "$f")"; fi
	done
	echo "hwlatd=$(grep -l '^hwlatd' /proc/[0-9]*/comm 2>/dev/null | wc -l)"
	echo "cpu_dma_latency=$(dma_latency)"
	for f in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/disable; do
		if [ -e "$f" ]; then echo "$f=$(cat "$f")"; fi
	done
}

# The PM QoS CPU latency limit in us (2000000000 when nobody asks for one).
# Reading it opens the device, which adds a request at the default: no change.
dma_latency() {
	od -An -td4 -N4 /dev/cpu_dma_latency | tr -d ' '
}

# guardian_of PID: the guardian of rtla run PID, if it started. It is
# nobody's child; it holds the run's pidfd, whose fdinfo names the run.
guardian_of() {
	local f
	f=$(grep -lx "Pid:[[:space:]]*$1" /proc/[0-9]*/fdinfo/* 2>/dev/null | head -n 1)
	f=${f#/proc/}
	echo "${f%%/*}"
}

# Settings that differ from the kernel defaults, so that a run which "restores"
# to the defaults instead of to what it found is caught.
unusual_settings() {
	echo 2000000 >"$T/osnoise/period_us"
	echo 900000 >"$T/osnoise/runtime_us"
	echo 7 >"$T/tracing_thresh"
	echo 0 >"$T/osnoise/cpus"
	echo 2500 >"$T/osnoise/timerlat_period_us"
	echo 9 >"$T/osnoise/print_stack"
	if [ -e "$T/hwlat_detector/width" ]; then
		echo 200000 >"$T/hwlat_detector/width"
		echo 700000 >"$T/hwlat_detector/window"
		echo per-cpu >"$T/hwlat_detector/mode"
	fi
	if [ -e "$T/osnoise/options" ]; then
		echo NO_OSNOISE_WORKLOAD >"$T/osnoise/options"
		echo OSNOISE_PREEMPT_DISABLE >"$T/osnoise/options"
	fi
}

default_settings() {
	echo 1000000 >"$T/osnoise/runtime_us"
	echo 1000000 >"$T/osnoise/period_us"
	echo 0 >"$T/tracing_thresh"
	echo 0 >"$T/osnoise/stop_tracing_us"
	echo 0 >"$T/osnoise/stop_tracing_total_us"
	echo "$(cat /sys/devices/system/cpu/possible)" >"$T/osnoise/cpus"
	echo 1000 >"$T/osnoise/timerlat_period_us"
	echo 0 >"$T/osnoise/print_stack"
	if [ -e "$T/hwlat_detector/width" ]; then
		echo 1000000 >"$T/hwlat_detector/window"
		echo 500000 >"$T/hwlat_detector/width"
		echo round-robin >"$T/hwlat_detector/mode"
	fi
	if [ -e "$T/osnoise/options" ]; then
		echo OSNOISE_WORKLOAD >"$T/osnoise/options"
		echo NO_OSNOISE_IRQ_DISABLE >"$T/osnoise/options"
		echo NO_OSNOISE_PREEMPT_DISABLE >"$T/osnoise/options"
		echo NO_PANIC_ON_STOP >"$T/osnoise/options"
	fi
	echo nop >"$T/current_tracer"
	rm -f /run/rtla/osnoise.state
}

# assert_state_unchanged BEFORE: the snapshot now equals BEFORE
assert_state_unchanged() {
	local after
	after=$(snapshot)
	if [ "$1" != "$after" ]; then
		echo "kernel state changed:"
		diff <(echo "$1") <(echo "$after") || true
		return 1
	fi
}

# One row of upstream's table: CPU, #periods, runtime, noise, % avail, max noise,
# max single, HW, NMI (hwnoise, with a trailing space) or + IRQ, Softirq, Thread.
HW_ROW='^ {0,2}[0-9]+ #[0-9]+ +[0-9]+ +[0-9]+ +[0-9]{1,3}\.[0-9]{5} +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ $'
OS_ROW='^ {0,2}[0-9]+ #[0-9]+ +[0-9]+ +[0-9]+ +[0-9]{1,3}\.[0-9]{5} +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$'

# The pid of the kernel thread osnoise/CPU.
osnoise_thread() {
	grep -l "^osnoise/$1\$" /proc/[0-9]*/comm 2>/dev/null | head -1 | cut -d/ -f3
}

untrace snapshot unusual_settings default_settings assert_state_unchanged guardian_of
