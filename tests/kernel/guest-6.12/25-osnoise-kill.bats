# Kernel state is borrowed, never kept, whatever ends the run: osnoise top and
# hwnoise ended by every signal whose default ends a process, at a random
# point from set-up to teardown, leave every setting as they found it within
# 1 s of their end. The catchable signals end the run through its teardown;
# the crash signals and SIGKILL leave the restore to the run's guardian
# process. Also: a record that cannot be replayed, two runs started at once,
# a user's instance that only looks like ours.
#
# Budget: about 2 min of guest time (28 killed runs of 0-3 s each).

load /vm/lib/kill

# the two tools in turn
tool() {
	if [ $(($1 % 2)) -eq 0 ]; then echo "osnoise top"; else echo hwnoise; fi
}

@test "every catchable signal that would end rtla ends the run through its teardown" {
	local i=0
	for sig in INT TERM HUP QUIT USR1 USR2 ALRM VTALRM PROF XCPU XFSZ PWR STKFLT IO RTMIN \
		RTMAX; do
		# shellcheck disable=SC2046
		kill_one "$sig" $(tool $((i++)))
		# an exit status, not death by the signal: the teardown ran (a
		# signal before the handlers were installed kills, harmlessly)
		! $SETUP || [ "$status" -le 1 ] ||
			{ echo "SIG$sig: exit status $status"; cat err.txt; false; }
	done
}

@test "a crash signal: the guardian restores within 1 s" {
	local i=0
	for sig in SEGV BUS ILL FPE ABRT TRAP SYS; do
		# shellcheck disable=SC2046
		kill_one "$sig" $(tool $((i++)))
		[ "$status" -gt 128 ] || { echo "SIG$sig: exit status $status"; false; }
	done
}

@test "SIGKILL at random points: the guardian restores within 1 s" {
	local worst=0 i
	for i in 0 1 2; do
		# shellcheck disable=SC2046
		kill_one KILL $(tool "$i")
		[ "$status" -eq 137 ]
		[ "$MS" -le "$worst" ] || worst=$MS
	done
	echo "# SIGKILL: restored within $worst ms of the end at worst" >&3
}

@test "SIGKILL in the middle of the teardown: the guardian finishes it" {
	for tool in "osnoise top" hwnoise; do
		# shellcheck disable=SC2086
		kill_in_teardown $tool
	done
}

@test "two runs started at once: one runs, the other is refused with the first's real pid" {
	"$RTLA" osnoise top -c 1 -d 1s -q >a.txt 2>&1 &
	a=$!
	"$RTLA" hwnoise -c 0 -d 1s -q >b.txt 2>&1 &
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

@test "a record that cannot be replayed is reported value by value, set aside, and blocks no later run" {
	mkdir -p /run/rtla
	# a hand-made record, and one of a run that saw another kernel
	printf 'osnoise/cpus 999\n' >/run/rtla/osnoise.state
	run "$RTLA" osnoise top -c 1 -d 1s -q
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"cannot replay line 1 of the record: 'osnoise/cpus 999'"* ]]
	[[ $output == *"kept as /run/rtla/osnoise.state.bad-"*"(rm /run/rtla/osnoise.state.bad-"* ]]
	printf 'pid 99999\nrestore /sys/kernel/tracing/osnoise/cpus 999\nrestore /sys/kernel/tracing/tracing_thresh 7\n' >/run/rtla/osnoise.state
	run "$RTLA" osnoise top -c 1 -d 1s -q
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"left by a killed rtla run (pid 99999)"* ]]
	[[ $output =~ "cannot restore /sys/kernel/tracing/osnoise/cpus to '999': ".*" (E"[A-Z]+")" ]]
	[ ! -e /run/rtla/osnoise.state ] || [ ! -s /run/rtla/osnoise.state ]
	[ "$(ls /run/rtla/osnoise.state.bad-* | wc -l)" -eq 2 ]
	grep -qx 'restore /sys/kernel/tracing/osnoise/cpus 999' /run/rtla/osnoise.state.bad-*
	# the next run is not blocked
	run "$RTLA" osnoise top -c 1 -d 1s -q
	echo "$output"
	[ "$status" -eq 0 ]
	all_unchanged
}

@test "a user's instance named like rtla's, of a pid that does not exist, is left alone" {
	OWN=rtla_osnoise_top_99999
	mkdir "$T/instances/$OWN"
	before=$(snapshot_all)
	run "$RTLA" osnoise top -c 1 -d 1s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[ -d "$T/instances/$OWN" ]
	[[ $output != *"$OWN"* ]]
	all_unchanged
}
