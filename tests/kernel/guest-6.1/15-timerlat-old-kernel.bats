# timerlat on the old kernel (6.1): no osnoise/options and no timerlat_fd
# (Linux >= 6.5), so no user-space workload: -u and -U fail in one line that
# names timerlat_fd and change nothing; -k and the default (kernel threads
# there) work, with no user column, as the peer's table.

load /vm/lib/noise
load /vm/lib/timerlat

setup() {
	default_settings
	tl_unusual_settings
	before=$(snapshot)
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

@test "-u and -U fail with one line naming timerlat_fd, exit 1, nothing changed" {
	[ ! -e "$T/osnoise/per_cpu/cpu0/timerlat_fd" ]
	for args in "top -u" "top -U" "hist -u" "hist -U" "top -u -c 1 --dma-latency 5"; do
		eval "set -- $args"
		run "$RTLA" timerlat "$@" -d 2s
		echo "timerlat $args -> $status: $output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == "rtla timerlat $1: "*"timerlat_fd"* ]]
	done
	[ -z "$(tl_pids 'timerlatu/*')" ]
	assert_state_unchanged "$before"
}

@test "the default is the kernel's threads: the peer's header, no user column, restored after" {
	run "$RTLA_PEER" timerlat top -c 0 -d 2s -q -k
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" timerlat top -c 0 -d 2s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "${peer[0]}" ]
	[ "${lines[1]:12}" = "${peer[1]:12}" ]
	[ "${lines[2]}" = "${peer[2]}" ]
	[[ ${lines[3]} =~ $TL_ROW_K ]]
	[[ ${lines[5]} =~ $TL_ALL_K ]]
	[[ $output != *"Ret user"* ]]
	assert_state_unchanged "$before"
}

@test "-k: timerlat/N threads on the measured CPU while the run is alive; hist with IRQ and Thr only" {
	run "$RTLA" timerlat top -k -c 1 -T 1 -d 20s -q --on-threshold "$(tl_look)"
	echo "$output"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -q '^thread timerlat/1 cpus=1 sched=SCHED_FIFO:95 ' state.txt
	grep -qx 'stop_tracing_total_us=1' state.txt
	grep -qx 'timerlat_period_us=1000' state.txt
	# the stop line, then the analysis of the stop
	[[ $output == *$'\ntimerlat hit stop tracing\n## CPU 1 hit stop tracing, analyzing it ##\n'* ]]
	assert_state_unchanged "$before"
	run "$RTLA" timerlat hist -k -c 0 -d 2s -b 1000
	printf '%s\n' "$output" >out.txt
	cat out.txt
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "Index   IRQ-000   Thr-000" ]
	[ "${lines[-5]}" = "ALL:        IRQ       Thr" ]
	tl_hist_shape 1000 256
	assert_state_unchanged "$before"
}
