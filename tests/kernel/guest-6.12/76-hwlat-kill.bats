# rtla hwlat's borrowed settings (tracing_thresh, hwlat_detector/width,
# window, mode; its instance and the tracer's kernel thread) come back within
# 1 s of the end, whatever ends the run: the catchable signals through the
# teardown, a crash signal and SIGKILL through the guardian. Only what hwlat
# adds to the kill matrices of 25-osnoise-kill.bats (guest-lib/kill.bash),
# whose every signal takes the same paths (the signal handlers, the
# guardian) in any tool.
#
# The window is short (20 ms, a 2 ms width): the kernel stops its thread
# only once the thread's window is over, so the restore waits up to one
# window after the instance goes.
#
# 6.12 only: rtla's path is the same on 6.1, where the removal of any
# tracefs instance alone takes 0.15-0.8 s of this TCG guest (no eventfs:
# every event's files are real), which 6.1/25-osnoise-kill.bats already
# measures against the same 1 s.
#
# Budget: about 34 s of guest time (6 killed runs of 0-3 s each).

load /vm/lib/kill

HW=(hwlat top -p 20000 -r 2000)

@test "hwlat: SIGINT and SIGTERM end the run through its teardown, top and hist" {
	kill_one TERM "${HW[@]}"
	! $SETUP || [ "$status" -le 1 ] || { echo "SIGTERM: exit status $status"; cat err.txt; false; }
	kill_one INT hwlat hist -p 20000 -r 2000
	! $SETUP || [ "$status" -le 1 ] || { echo "SIGINT: exit status $status"; cat err.txt; false; }
}

@test "hwlat: a crash signal and SIGKILL at random points: the guardian restores within 1 s" {
	kill_one SEGV "${HW[@]}"
	[ "$status" -gt 128 ]
	kill_one KILL "${HW[@]}"
	[ "$status" -eq 137 ]
	kill_one KILL "${HW[@]}"
	[ "$status" -eq 137 ]
}

@test "hwlat: SIGKILL in the middle of the teardown: the guardian finishes it" {
	kill_in_teardown "${HW[@]}"
}
