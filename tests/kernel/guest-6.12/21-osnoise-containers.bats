# Two runs in two mount namespaces, each with its own /run (as two containers
# that share the kernel): the run record's flock in /run/rtla cannot see the
# other, the tracefs lock (src/tracefs_lock.c) can. The second run is refused
# with the holder named; a holder killed with its guardian (its container
# gone) leaves the lock, which the next run reclaims; a normal end removes it.

load /vm/lib/noise

LOCK=$T/instances/rtla_lock_osnoise

setup() {
	default_settings
	unusual_settings
	before=$(snapshot)
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	pkill -KILL -f /usr/local/bin/rtla 2>/dev/null || true
	default_settings
}

# "${IN_CONTAINER[@]}" CMD...: CMD in a new mount namespace with a /run of its
# own; unshare and sh exec, so that CMD keeps the pid of the background job
IN_CONTAINER=(unshare -m sh -c 'mount -t tmpfs none /run && exec "$@"' sh)

# wait_for_lock: until the lock instance exists (5 s at most)
wait_for_lock() {
	local i
	for i in $(seq 50); do
		if [ -d "$LOCK" ]; then return 0; fi
		sleep 0.1
	done
	echo "no $LOCK after 5 s"
	return 1
}

@test "containers: a run in another mount namespace with its own /run is refused, the holder named" {
	"${IN_CONTAINER[@]}" "$RTLA" hwnoise -c 1 -d 5s -q >first.txt 2>&1 &
	pid=$!
	wait_for_lock
	# the first run's record is in its own /run, not in this one
	[ ! -e /run/rtla/osnoise.state ]
	run "${IN_CONTAINER[@]}" "$RTLA" osnoise top -c 0 -d 1s -q
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == "rtla osnoise top: another rtla run (pid $pid, host $(uname -n), since "*": "*"hwnoise -c 1 -d 5s -q) is using the osnoise tracer; its settings are global, so two runs cannot share them" ]]
	[ "${#lines[@]}" -eq 1 ]
	status=0
	wait "$pid" || status=$?
	cat first.txt
	[ "$status" -eq 0 ]
	[ ! -e "$LOCK" ]
	assert_state_unchanged "$before"
}

@test "containers: a holder killed with its guardian leaves its lock; the next run reclaims it" {
	"${IN_CONTAINER[@]}" "$RTLA" hwnoise -c 1 -d 60s -q >/dev/null 2>&1 &
	pid=$!
	wait_for_lock
	sleep 1
	kill -KILL "$(guardian_of "$pid")" "$pid"
	wait "$pid" || true
	[ -d "$LOCK" ]
	# its instance's mark was in the /run that went with it: removed by hand
	echo nop >"$T/instances/rtla_osnoise_top_$pid/current_tracer"
	rmdir "$T/instances/rtla_osnoise_top_$pid"
	run "${IN_CONTAINER[@]}" "$RTLA" hwnoise -c 1 -d 1s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"removed the tracefs lock rtla_lock_osnoise of an rtla run that is gone (pid $pid, host "* ]]
	[ ! -e "$LOCK" ]
}
