# rtla hwlat's borrowed settings (tracing_thresh, hwlat_detector/width,
# window, mode; its instance and the tracer's kernel thread) come back within
# 1 s of the end, whatever ends the run: the catchable signals through the
# teardown, a crash signal and SIGKILL through the guardian. The kill matrix
# of 25-osnoise-kill.bats (guest-lib/kill.bash), on a few signals.
#
# Budget: about 25 s of guest time (8 killed runs of 0-3 s each).

load /vm/lib/kill

HW=(hwlat top -p 100000 -r 20000)

@test "hwlat: SIGINT, SIGTERM, SIGHUP end the run through its teardown" {
	for sig in INT TERM HUP; do
		kill_one "$sig" "${HW[@]}"
		! $SETUP || [ "$status" -le 1 ] ||
			{ echo "SIG$sig: exit status $status"; cat err.txt; false; }
	done
	kill_one INT hwlat hist -p 100000 -r 20000
}

@test "hwlat: a crash signal and SIGKILL: the guardian restores within 1 s" {
	kill_one SEGV "${HW[@]}"
	[ "$status" -gt 128 ]
	for _ in 0 1; do
		kill_one KILL "${HW[@]}"
		[ "$status" -eq 137 ]
	done
}

@test "hwlat: SIGKILL in the middle of the teardown: the guardian finishes it" {
	"$RTLA" "${HW[@]}" -c 1 -d 30s -q >out.txt 2>err.txt &
	pid=$!
	nap_random 3000
	look_at_run
	kill -INT "$pid"
	nap_random 300
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" || true
	ended
	settled_within_1s
}
