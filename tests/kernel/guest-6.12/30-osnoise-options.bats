# Every option of osnoise top and hwnoise, with the kernel state it produced read
# back while the run is alive (from an --on-end shell action, which runs before
# the settings are restored) and with its effect on the output.

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

# probe FILE...: an --on-end action that copies tracefs files into state.txt
probe() {
	local cmd="" f
	for f in "$@"; do
		cmd+="echo $f=\$(cat $T/$f); "
	done
	echo "shell,command=( $cmd ) > $BATS_TEST_TMPDIR/state.txt"
}

@test "hwnoise defaults: 750 ms of 1 s, threshold 0, all CPUs, IRQs disabled, workload on" {
	run "$RTLA" hwnoise -d 1s -q --on-end "$(probe osnoise/runtime_us osnoise/period_us tracing_thresh osnoise/cpus osnoise/stop_tracing_us osnoise/stop_tracing_total_us osnoise/options)"
	cat state.txt
	[ "$status" -eq 0 ]
	grep -qx 'osnoise/runtime_us=750000' state.txt
	grep -qx 'osnoise/period_us=1000000' state.txt
	grep -qx 'tracing_thresh=0' state.txt
	grep -qx 'osnoise/cpus=0-1' state.txt
	grep -qx 'osnoise/stop_tracing_us=0' state.txt
	grep -q 'options=.* OSNOISE_WORKLOAD .*OSNOISE_IRQ_DISABLE' state.txt
	grep -vq 'NO_OSNOISE_IRQ_DISABLE' state.txt
}

@test "osnoise top defaults: 1 s of 1 s, IRQs enabled, preemption and panic-on-stop cleared" {
	echo OSNOISE_IRQ_DISABLE >$T/osnoise/options
	echo OSNOISE_PREEMPT_DISABLE >$T/osnoise/options
	echo PANIC_ON_STOP >$T/osnoise/options
	run "$RTLA" osnoise top -c 0 -d 1s -q --on-end "$(probe osnoise/runtime_us osnoise/period_us osnoise/options)"
	cat state.txt
	[ "$status" -eq 0 ]
	grep -qx 'osnoise/runtime_us=1000000' state.txt
	grep -qx 'osnoise/period_us=1000000' state.txt
	grep -q 'NO_OSNOISE_IRQ_DISABLE' state.txt
	grep -q 'NO_OSNOISE_PREEMPT_DISABLE' state.txt
	grep -q 'NO_PANIC_ON_STOP' state.txt
	# and put back as they were found
	grep -q ' OSNOISE_PREEMPT_DISABLE' $T/osnoise/options
	grep -q ' PANIC_ON_STOP' $T/osnoise/options
}

@test "-p -r -T -c -s -S are written to the kernel" {
	run "$RTLA" osnoise top -p 200000 -r 100000 -T 3 -c 1 -s 900000 -S 950000 -d 1s -q \
		--on-end "$(probe osnoise/runtime_us osnoise/period_us tracing_thresh osnoise/cpus osnoise/stop_tracing_us osnoise/stop_tracing_total_us)"
	cat state.txt
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'osnoise/runtime_us=100000' state.txt
	grep -qx 'osnoise/period_us=200000' state.txt
	grep -qx 'tracing_thresh=3' state.txt
	grep -qx 'osnoise/cpus=1' state.txt
	grep -qx 'osnoise/stop_tracing_us=900000' state.txt
	grep -qx 'osnoise/stop_tracing_total_us=950000' state.txt
	[[ ${lines[3]} == "  1 #"* ]]
	[ "${#lines[@]}" -eq 4 ]
}

# The osnoise/N threads live while the tracer runs: a stop condition (-s 1, hit at
# once under emulation) keeps them for the --on-threshold action to look at.

@test "-P f:10 sets SCHED_FIFO 10 on the osnoise threads" {
	run "$RTLA" osnoise top -c 1 -P f:10 -T 1 -s 1 -d 20s -q --on-threshold \
		"shell,command=cut -d' ' -f18,41 /proc/\$(grep -l '^osnoise/1\$' /proc/[0-9]*/comm | cut -d/ -f3)/stat > $BATS_TEST_TMPDIR/sched.txt"
	echo "$output"; cat sched.txt
	[ "$status" -eq 2 ]
	# field 18 is the kernel priority (-1 - rt_priority), 41 the policy (1 = FIFO)
	[ "$(cat sched.txt)" = "-11 1" ]
}

@test "-P o:5 sets nice 5 on the osnoise threads" {
	run "$RTLA" hwnoise -c 1 -P o:5 -T 1 -s 1 -d 20s -q --on-threshold \
		"shell,command=cut -d' ' -f19,41 /proc/\$(grep -l '^osnoise/1\$' /proc/[0-9]*/comm | cut -d/ -f3)/stat > $BATS_TEST_TMPDIR/sched.txt"
	cat sched.txt
	[ "$status" -eq 2 ]
	[ "$(cat sched.txt)" = "5 0" ]
}

@test "-C moves the osnoise threads into the named cgroup; -C alone into rtla's" {
	mkdir -p /sys/fs/cgroup/rtla-test
	probe_cg="shell,command=cat /proc/\$(grep -l '^osnoise/1\$' /proc/[0-9]*/comm | cut -d/ -f3)/cgroup > $BATS_TEST_TMPDIR/cg.txt"
	run "$RTLA" osnoise top -c 1 -C rtla-test -T 1 -s 1 -d 20s -q --on-threshold "$probe_cg"
	echo "$output"; cat cg.txt
	[ "$status" -eq 2 ]
	[ "$(cat cg.txt)" = "0::/rtla-test" ]
	# -C alone: rtla's own cgroup (a child of the root made for this test)
	mkdir -p /sys/fs/cgroup/rtla-self
	printf '%s\n' 'echo $$ >/sys/fs/cgroup/rtla-self/cgroup.procs' 'exec "$@"' >enter.sh
	run sh enter.sh "$RTLA" osnoise top -c 1 -C -T 1 -s 1 -d 20s -q --on-threshold "$probe_cg"
	echo "$output"; cat cg.txt
	[ "$status" -eq 2 ]
	[ "$(cat cg.txt)" = "0::/rtla-self" ]
	echo $$ >/sys/fs/cgroup/cgroup.procs
	rmdir /sys/fs/cgroup/rtla-test /sys/fs/cgroup/rtla-self
}

@test "-H pins rtla itself; without it, -c moves rtla off the measured CPUs" {
	run "$RTLA" hwnoise -c 1 -H 0 -d 1s -q --on-end \
		"shell,command=grep Cpus_allowed_list /proc/\$PPID/status > $BATS_TEST_TMPDIR/aff.txt"
	cat aff.txt
	[ "$status" -eq 0 ]
	grep -q 'Cpus_allowed_list:[[:space:]]*0$' aff.txt
	run "$RTLA" hwnoise -c 0 -d 1s -q --on-end \
		"shell,command=grep Cpus_allowed_list /proc/\$PPID/status > $BATS_TEST_TMPDIR/aff.txt"
	cat aff.txt
	grep -q 'Cpus_allowed_list:[[:space:]]*1$' aff.txt
}
