# The options of timerlat top and hist that set the kernel: what each wrote,
# read back while the run is alive (from an --on-threshold or --on-end shell
# action, which run before the settings are restored, or from a reader beside
# the run), the record instance, and bad input refused before anything changed.

load /vm/lib/noise
load /vm/lib/timerlat

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

@test "defaults: period 1000 us, no stop, no stack, every CPU, OSNOISE_WORKLOAD off for the user workers" {
	tl_unusual_settings
	before=$(snapshot)
	run "$RTLA" timerlat top -d 1s -q --on-end "$(tl_look)"
	echo "$output"
	cat state.txt
	[ "$status" -eq 0 ]
	grep -qx 'timerlat_period_us=1000' state.txt
	grep -qx 'stop_tracing_us=0' state.txt
	grep -qx 'stop_tracing_total_us=0' state.txt
	grep -qx 'print_stack=0' state.txt
	grep -qx 'cpus=0-1' state.txt
	grep -q 'options=.*NO_OSNOISE_WORKLOAD' state.txt
	grep -q 'options=.*NO_PANIC_ON_STOP' state.txt
	grep -qx 'dma=2000000000' state.txt
	[[ ${lines[3]} == "  0 #"* ]]
	[[ ${lines[4]} == "  1 #"* ]]
	assert_state_unchanged "$before"
}

@test "-p is the kernel's timerlat_period_us during the run, as a reader beside it sees; restored after" {
	echo 777 >"$T/osnoise/timerlat_period_us"
	"$RTLA" timerlat top -c 0 -p 500 -d 3s -q >out.txt 2>&1 &
	pid=$!
	seen=""
	while kill -0 "$pid" 2>/dev/null; do
		seen+=" $(cat "$T/osnoise/timerlat_period_us")"
		sleep 0.2
	done
	status=0
	wait "$pid" || status=$?
	cat out.txt
	echo "seen:$seen"
	[ "$status" -eq 0 ]
	[[ "$seen " == *" 500 "* ]]
	[ "$(cat "$T/osnoise/timerlat_period_us")" = 777 ]
	# the longest period, 1 s: a handful of samples in 3 s
	run "$RTLA" timerlat hist -c 0 -k -p 1000000 -d 3s --on-end "$(tl_look)"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'timerlat_period_us=1000000' state.txt
	count=$(awk '$1 == "count:" { print $2; exit }' <<<"$output")
	[ "$count" -ge 1 ]
	[ "$count" -le 4 ]
}

@test "-i, -T, -s, -a go to stop_tracing_us, stop_tracing_total_us, print_stack, in us also with -n" {
	run "$RTLA" timerlat top -k -c 0 -i 10 -s 7 -d 20s -q --on-threshold "$(tl_look)"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -qx 'stop_tracing_us=10' state.txt
	grep -qx 'stop_tracing_total_us=0' state.txt
	grep -qx 'print_stack=7' state.txt
	run "$RTLA" timerlat hist -k -c 0 -n -T 10 -d 20s --on-threshold "$(tl_look)"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -qx 'stop_tracing_us=0' state.txt
	grep -qx 'stop_tracing_total_us=10' state.txt
	grep -qx 'print_stack=0' state.txt
	run "$RTLA" timerlat top -k -c 0 -a 20 -d 20s -q --on-threshold "$(tl_look)"
	echo "$output"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -qx 'stop_tracing_us=20' state.txt
	grep -qx 'stop_tracing_total_us=20' state.txt
	grep -qx 'print_stack=20' state.txt
	[[ $output == *"  Saving trace to timerlat_trace.txt"* ]]
	[ -s timerlat_trace.txt ]
}

# The kernel's stop wakes no poll: the run looks at tracing_on every 0.1 s
# while a stop condition is armed. At the one-second tick a 3-s run with
# "continue" would see 3 hits at most; each look-collect-rearm cycle takes
# ~0.15 s in this guest.
@test "a stop is acted on within a tenth of a second, not at the next tick: -T 1 with continue hits many times in 3 s" {
	run "$RTLA" timerlat top -q -c 0 -T 1 -d 3s \
		--on-threshold "shell,command=echo hit >> $BATS_TEST_TMPDIR/hits.txt" --on-threshold continue
	echo "$output"
	[ "$status" -eq 0 ]
	echo "# $(wc -l <hits.txt) hits in 3 s" >&3
	[ "$(wc -l <hits.txt)" -ge 6 ]
}

@test "-s: the trace holds the IRQ's stack where a thread latency passed it" {
	run "$RTLA" timerlat top -c 0 -s 1 -T 1 -t -d 20s -q
	[ "$status" -eq 2 ]
	grep -q '<stack trace>' timerlat_trace.txt
	grep -q '=> timerlat_irq' timerlat_trace.txt
}

@test "--dma-latency holds /dev/cpu_dma_latency at the value during the run and releases it" {
	[ "$(dma_latency)" = 2000000000 ]
	run "$RTLA" timerlat top -c 0 -d 1s -q --dma-latency 7 --on-end "$(tl_look)"
	cat state.txt
	[ "$status" -eq 0 ]
	grep -qx 'dma=7' state.txt
	[ "$(dma_latency)" = 2000000000 ]
	# and with a stop, kernel threads, hist; 10000 is the largest accepted
	run "$RTLA" timerlat hist -k -c 0 -T 1 -d 20s --dma-latency 10000 --on-threshold "$(tl_look)"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -qx 'dma=10000' state.txt
	[ "$(dma_latency)" = 2000000000 ]
}

@test "--deepest-idle-state disables the deeper cpuidle states during the run and restores them" {
	if [ ! -d /sys/devices/system/cpu/cpu0/cpuidle/state0 ]; then
		skip "the guest has no cpuidle states ($(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo no driver))"
	fi
	dis=/sys/devices/system/cpu/cpu0/cpuidle/state1/disable
	[ -e "$dis" ] || skip "cpu0 has one cpuidle state only"
	before=$(cat /sys/devices/system/cpu/cpu*/cpuidle/state*/disable | xargs)
	run "$RTLA" timerlat top -c 0 -d 1s -q --deepest-idle-state 0 --on-end \
		"shell,command=cat $dis > $BATS_TEST_TMPDIR/idle.txt"
	[ "$status" -eq 0 ]
	[ "$(cat idle.txt)" = 1 ]
	[ "$(cat /sys/devices/system/cpu/cpu*/cpuidle/state*/disable | xargs)" = "$before" ]
}

@test "--deepest-idle-state without cpuidle states runs and changes nothing" {
	before=$(snapshot)
	run "$RTLA" timerlat top -c 0 -d 1s -q --deepest-idle-state -1
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[3]} =~ $TL_ROW_U ]]
	assert_state_unchanged "$before"
}

@test "-t --trace-buffer-size -e --filter: the record instance as asked; --warm-up still measures" {
	run "$RTLA" timerlat top -c 0 -k -t --trace-buffer-size 1024 -e sched:sched_switch \
		--filter 'prev_pid > 0' --warm-up 1 -d 2s -q --on-end \
		"shell,command=cat $T/instances/rtla_timerlat_trace_*/buffer_size_kb $T/instances/rtla_timerlat_trace_*/events/sched/sched_switch/filter > $BATS_TEST_TMPDIR/rec.txt"
	echo "$output"
	cat rec.txt
	[ "$status" -eq 0 ]
	# the kernel rounds the size up to whole sub-buffers
	[ "$(head -1 rec.txt)" -ge 1024 ]
	[ "$(head -1 rec.txt)" -lt 1100 ]
	grep -q 'prev_pid > 0' rec.txt
	[[ ${lines[3]} =~ $TL_ROW_K ]]
}

@test "hist takes --dump-tasks as top does, and the getopt era's --dump-task" {
	run "$RTLA" timerlat hist -c 0 -k -d 1s --dump-tasks -b 1000
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# RTLA timerlat histogram" ]
	run "$RTLA" timerlat hist -c 0 -k -d 1s --dump-task -b 1000
	[ "$status" -eq 0 ]
}

@test "bad input: exit 1, one line, the kernel state untouched" {
	tl_unusual_settings
	before=$(snapshot)
	for args in "-p 1000001" "-p 99" "-p x" "--dma-latency 10001" "--dma-latency -1" "-u -k" \
		"-k -U" "-c 9" "-P x" "--stack-format x" "--deepest-idle-state -2" "-i x" "-T -1" \
		"-a x" "--aa-only 5 --no-aa" "-C nosuch-cgroup" "-e nosuch:event" "-d 0x" \
		"--on-threshold bogus" "--filter x"; do
		eval "set -- $args"
		run "$RTLA" timerlat top -c 0 -d 1s -q "$@"
		echo "timerlat top $args -> $status: $output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == "rtla timerlat top: "* ]]
	done
	for args in "-b 0" "-b 1000001" "-E 9" "-E 10000000" "--no-index" "--no-irq --no-thread" "-q"; do
		eval "set -- $args"
		run "$RTLA" timerlat hist -c 0 -d 1s "$@"
		echo "timerlat hist $args -> $status: $output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
	done
	run "$RTLA" timerlat top -p 2000000
	[[ $output == "rtla timerlat top: Period longer than 1 s"* ]]
	run "$RTLA" timerlat hist -E 1
	[[ $output == "rtla timerlat hist: Entries must be > 10 and < 9999999"* ]]
	run "$RTLA" timerlat top --dma-latency 20000
	[[ $output == "rtla timerlat top: --dma-latency needs to be >= 0 and < 10000"* ]]
	run "$RTLA" timerlat top -u -k
	[ "$output" = "rtla timerlat top: --kernel-threads and --user-threads are mutually exclusive!" ]
	assert_state_unchanged "$before"
}
