# Kernel state is borrowed, never kept, whatever ends the run, on the old
# kernel too (no osnoise/options; hwnoise fails cleanly here, see
# 10-osnoise-old-kernel.bats): osnoise top ended by every signal whose
# default ends a process, at a random point from set-up to teardown, leaves
# every setting as it found it within 1 s of its end. The catchable signals
# end the run through its teardown; the crash signals and SIGKILL leave the
# restore to the run's guardian process. Also: two runs started at once.
#
# Budget: about 2 min of guest time (28 killed runs of 0-3 s each).

load /vm/lib/kill

@test "every catchable signal that would end rtla ends the run through its teardown" {
	for sig in INT TERM HUP QUIT USR1 USR2 ALRM VTALRM PROF XCPU XFSZ PWR STKFLT IO RTMIN \
		RTMAX; do
		kill_one "$sig" osnoise top
		# an exit status, not death by the signal: the teardown ran (a
		# signal before the handlers were installed kills, harmlessly)
		! $SETUP || [ "$status" -le 1 ] ||
			{ echo "SIG$sig: exit status $status"; cat err.txt; false; }
	done
}

@test "a crash signal: the guardian restores within 1 s" {
	for sig in SEGV BUS ILL FPE ABRT TRAP SYS; do
		kill_one "$sig" osnoise top
		[ "$status" -gt 128 ] || { echo "SIG$sig: exit status $status"; false; }
	done
}

@test "SIGKILL at random points: the guardian restores within 1 s" {
	local worst=0
	for _ in 0 1 2; do
		kill_one KILL osnoise top
		[ "$status" -eq 137 ]
		[ "$MS" -le "$worst" ] || worst=$MS
	done
	echo "# SIGKILL: restored within $worst ms of the end at worst" >&3
}

@test "SIGKILL in the middle of the teardown: the guardian finishes it" {
	for _ in 1 2; do
		kill_in_teardown osnoise top
	done
}

@test "two runs started at once: one runs, the other is refused with the first's real pid" {
	"$RTLA" osnoise top -c 1 -d 1s -q >a.txt 2>&1 &
	a=$!
	"$RTLA" osnoise top -c 0 -d 1s -q >b.txt 2>&1 &
	b=$!
	GUARD=
	sa=0 sb=0
	wait "$a" || sa=$?
	wait "$b" || sb=$?
	# the end of the later run; the 1 s counts from there, not from the checks below
	ended
	cat a.txt b.txt
	if [ "$sa" -eq 0 ]; then
		[ "$sb" -eq 1 ]
		grep -qE "\(pid $a[,)]" b.txt
	else
		[ "$sa" -eq 1 ]
		[ "$sb" -eq 0 ]
		grep -qE "\(pid $b[,)]" a.txt
	fi
	! grep -q "pid 0" a.txt b.txt || false
	settled_in_time
	echo "# two runs: restored $MS ms after the end" >&3
}
