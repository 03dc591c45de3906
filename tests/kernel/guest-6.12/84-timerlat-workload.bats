# The workload of timerlat top and hist: rtla's timerlatu/N workers (-u, the
# default), the kernel's timerlat/N threads (-k), a foreign reader (-U), and
# where -P, -C and -H put them, read while the run is alive (from an
# --on-threshold or --on-end shell action, or beside the run); and the kernel
# state given back on every way a run ends.

load /vm/lib/noise
load /vm/lib/timerlat

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	if [ -n "${reader:-}" ]; then kill "$reader" 2>/dev/null || true; fi
	rmdir /sys/fs/cgroup/rtla-tl 2>/dev/null || true
	default_settings
}

@test "-u (the default): a timerlatu/N process per measured CPU, pinned to it, SCHED_FIFO 95" {
	run "$RTLA" timerlat top -c 0-1 -T 1 -d 20s -q --on-threshold "$(tl_look)"
	echo "$output"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -q '^thread timerlatu/0 cpus=0 sched=SCHED_FIFO:95 ' state.txt
	grep -q '^thread timerlatu/1 cpus=1 sched=SCHED_FIFO:95 ' state.txt
	[ "$(grep -c '^thread ' state.txt)" -eq 2 ]
	grep -q 'options=.*NO_OSNOISE_WORKLOAD' state.txt
	run "$RTLA" timerlat hist -u -c 1 -T 1 -d 20s --on-threshold "$(tl_look)"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -q '^thread timerlatu/1 cpus=1 sched=SCHED_FIFO:95 ' state.txt
	[ "$(grep -c '^thread ' state.txt)" -eq 1 ]
	# none outlives the run
	[ -z "$(tl_pids 'timerlatu/*')" ]
}

@test "-k: OSNOISE_WORKLOAD on, the kernel's timerlat/N thread on each measured CPU, no timerlatu" {
	echo NO_OSNOISE_WORKLOAD >"$T/osnoise/options"
	run "$RTLA" timerlat top -k -c 1 -T 1 -d 20s -q --on-threshold "$(tl_look)"
	echo "$output"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -q 'options=.* OSNOISE_WORKLOAD' state.txt
	grep -q '^thread timerlat/1 cpus=1 sched=SCHED_FIFO:95 ' state.txt
	[ "$(grep -c '^thread ' state.txt)" -eq 1 ]
	[[ $output != *"Ret user"* ]]
	# and the option is put back as it was found
	grep -q 'NO_OSNOISE_WORKLOAD' "$T/osnoise/options"
}

@test "-P: f:1 on the user workers and on the kernel threads, o:5 a nice of 5" {
	run "$RTLA" timerlat top -c 1 -P f:1 -T 1 -d 20s -q --on-threshold "$(tl_look)"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -q '^thread timerlatu/1 cpus=1 sched=SCHED_FIFO:1 ' state.txt
	run "$RTLA" timerlat hist -k -c 1 -P f:1 -T 1 -d 20s --on-threshold "$(tl_look)"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -q '^thread timerlat/1 cpus=1 sched=SCHED_FIFO:1 ' state.txt
	run "$RTLA" timerlat top -c 1 -P o:5 -T 1 -d 20s -q --on-threshold "$(tl_look)"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -q '^thread timerlatu/1 cpus=1 sched=SCHED_OTHER:0 nice=5 ' state.txt
}

@test "-C puts the user workers, or with -k the kernel threads, into the named cgroup" {
	mkdir -p /sys/fs/cgroup/rtla-tl
	run "$RTLA" timerlat top -c 1 -C rtla-tl -T 1 -d 20s -q --on-threshold "$(tl_look)"
	echo "$output"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -q '^thread timerlatu/1 .* cgroup=/rtla-tl$' state.txt
	run "$RTLA" timerlat hist -k -c 1 --cgroup=rtla-tl -T 1 -d 20s --on-threshold "$(tl_look)"
	echo "$output"
	cat state.txt
	[ "$status" -eq 2 ]
	grep -q '^thread timerlat/1 .* cgroup=/rtla-tl$' state.txt
}

@test "-H pins rtla itself; without it, -c moves rtla off the measured CPUs" {
	run "$RTLA" timerlat top -c 1 -H 0 -d 1s -q --on-end \
		"shell,command=grep Cpus_allowed_list /proc/\$PPID/status > $BATS_TEST_TMPDIR/aff.txt"
	cat aff.txt
	[ "$status" -eq 0 ]
	grep -q 'Cpus_allowed_list:[[:space:]]*0$' aff.txt
	run "$RTLA" timerlat top -c 0 -d 1s -q --on-end \
		"shell,command=grep Cpus_allowed_list /proc/\$PPID/status > $BATS_TEST_TMPDIR/aff.txt"
	cat aff.txt
	grep -q 'Cpus_allowed_list:[[:space:]]*1$' aff.txt
}

@test "-U starts no worker and measures a foreign reader of timerlat_fd: its samples fill the user column" {
	# a long run ended by SIGINT once the reader has run: a loaded guest may
	# take seconds between the checks, and the options must still be the run's
	"$RTLA" timerlat top -c 0 -U -d 120s -q >out.txt 2>&1 &
	pid=$!
	tl_wait_tracer "$pid"
	[ -z "$(tl_pids 'timerlatu/*')" ]
	# what the run said, if its options are not the -U ones
	grep -q 'NO_OSNOISE_WORKLOAD' "$T/osnoise/options" || { cat "$T/osnoise/options" out.txt; false; }
	tl_foreign_reader 0
	sleep 3
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	cat out.txt
	[ "$status" -eq 0 ]
	row=$(grep '^  0 #' out.txt)
	[[ $row =~ $TL_ROW_U ]]
	# the user block (the last four values) holds figures
	[[ $row =~ \|(\ +[0-9]+){4}$ ]]
	# the tracer ended the reader (SIGKILL) when rtla stopped it: gone or a zombie
	sleep 0.5
	state=$(awk '{ print $3 }' "/proc/$reader/stat" 2>/dev/null || true)
	echo "reader state: ${state:-gone}"
	[ -z "$state" ] || [ "$state" = Z ]
}

@test "the state is given back: normal end, stop, SIGINT, SIGTERM, user and kernel workload" {
	tl_unusual_settings
	before=$(snapshot)
	run "$RTLA" timerlat top -c 1 -d 1s -q
	[ "$status" -eq 0 ]
	assert_state_unchanged "$before"
	run "$RTLA" timerlat hist -k -c 1 -T 1 -d 20s --dma-latency 5
	[ "$status" -eq 2 ]
	assert_state_unchanged "$before"
	for sig in INT TERM; do
		for w in -u -k; do
			"$RTLA" timerlat top -c 0-1 "$w" -p 400 -d 60s -q >out.txt 2>&1 &
			pid=$!
			tl_wait_tracer "$pid"
			sleep 1
			kill -"$sig" "$pid"
			status=0
			wait "$pid" || status=$?
			echo "SIG$sig $w: status $status"
			cat out.txt
			if [ "$sig" = INT ]; then
				[ "$status" -eq 0 ]
				grep -q '^ALL #' out.txt
			fi
			assert_state_unchanged "$before"
		done
	done
}
