# Shared by the kill tests (25-osnoise-kill, 26-timerlat-kill, 76-hwlat-kill)
# and 27-timerlat-run: the snapshot of every borrowed setting, a run killed
# by one signal at a random point, and the check that everything is back
# within 1 s of its end and the kernel's own time to remove the run's
# instances (LIMIT_MS: setup_file).

load /vm/lib/noise

# The kernel's own time to remove one idle tracefs instance, in ms, measured
# once per file: under TCG an instance's rmdir (its events/ tree, the grace
# periods it waits for) takes 0.15-0.25 s on 6.1 and 6.12 alike, a few ms on
# hardware. A timerlat run holds three instances (its own, the
# auto-analysis one, the tracefs lock): a guardian that restores it spends
# 0.5-0.9 s in the kernel's rmdirs alone (measured with -D), which made the
# 6.1 kill test miss 1 s now and then. The bound is 1 s plus three such
# removals.
setup_file() {
	local i=$T/instances/kill_probe_$$ t0
	mkdir "$i"
	t0=${EPOCHREALTIME/./}
	rmdir "$i"
	RMDIR_MS=$(((${EPOCHREALTIME/./} - t0) / 1000))
	LIMIT_MS=$((1000 + 3 * RMDIR_MS))
	export RMDIR_MS LIMIT_MS
	echo "# an idle instance's rmdir: $RMDIR_MS ms; bound: $LIMIT_MS ms after the end" >&3
}

setup() {
	default_settings
	unusual_settings
	before=$(snapshot_all)
	cd "$BATS_TEST_TMPDIR"
	ulimit -c 0
	# a FIFO nobody writes: "read -t" on it naps without a fork
	mkfifo nap.fifo
	exec 9<>nap.fifo
}

teardown() {
	exec 9>&-
	for p in $(left); do
		kill -KILL "$p" 2>/dev/null || true
	done
	rm -f /run/rtla/osnoise.state.bad-*
	[ -z "${OWN:-}" ] || rmdir "$T/instances/$OWN" 2>/dev/null || true
	default_settings
}

# every file of osnoise/ (not just the ones rtla writes), then the helper's
# snapshot: tracing_thresh, current_tracer, tracing_on, instances, kthreads
snapshot_all() {
	local f
	for f in "$T"/osnoise/*; do
		if [ -f "$f" ]; then echo "${f#"$T"/}=$(cat "$f")"; fi
	done
	snapshot
}

# the state now equals $before, or what changed is shown
all_unchanged() {
	local now
	now=$(snapshot_all)
	[ "$now" = "$before" ] && return 0
	echo "kernel state changed:"
	diff <(echo "$before") <(echo "$now") || true
	return 1
}

# the time in ms, in NOW (no subshell: this guest is slow to fork)
now_ms() {
	NOW=${EPOCHREALTIME/./}
	NOW=$((NOW / 1000))
}

# rtla processes still alive, timerlat's workers too (a zombie waiting for
# its reaper is not)
left() {
	ps -o pid,stat,comm | awk '$3 ~ /^(rtla(-guardian)?|timerlatu\/[0-9]+)$/ && $2 !~ /^Z/ { print $1 }'
}

# is process $1 alive (not a zombie)? without a fork
alive() {
	local s
	[ -n "$1" ] && read -r s 2>/dev/null <"/proc/$1/stat" || return 1
	s=${s##*) }
	[ "${s%% *}" != Z ]
}

# the end of the run just waited for, in END (ms): call it right after the
# wait that reaps rtla, before anything else takes time
ended() {
	now_ms
	END=$NOW
}

# Wait until LIMIT_MS after the end of the run (END, set by ended) for the state
# to equal $before; MS: when, after the end, a look saw it so (timed after
# the look, so a late look fails), also printed. Only builtin tests until
# the instances, the record and the guardian GUARD are gone (the guardian
# removes the record last): on this single-threaded TCG guest a fork of the
# poll is taken from the guardian's time, and the full snapshot costs
# ~0.2 s. Then no rtla process may be left.
settled_in_time() {
	local t0=${END:-} inst gone
	unset END	# one end, one check
	[ -n "$t0" ] || { echo "settled_in_time: no end time (call ended right after the wait)"; return 1; }
	while :; do
		inst=("$T"/instances/rtla_osnoise_* "$T"/instances/rtla_timerlat_* "$T"/instances/rtla_hwlat_*)
		gone=false
		if [ ! -e "${inst[0]}" ] && [ ! -e "${inst[1]}" ] && [ ! -e "${inst[2]}" ] &&
			[ ! -s /run/rtla/osnoise.state ] &&
			! alive "$GUARD"; then
			gone=true
		fi
		now_ms
		MS=$((NOW - t0))
		if $gone && [ "$MS" -le "$LIMIT_MS" ] && [ "$(snapshot_all)" = "$before" ]; then
			if [ -z "$(left)" ]; then
				echo "restored $MS ms after the end"
				return 0
			fi
			echo "rtla processes left: $(left)"
			return 1
		fi
		if [ "$MS" -ge "$LIMIT_MS" ]; then
			echo "not restored $LIMIT_MS ms after the end (1 s and three rmdirs of $RMDIR_MS ms):"
			all_unchanged || true
			echo "rtla processes left: $(left)"
			cat err.txt
			return 1
		fi
		read -rt 0.02 -u 9 || true
	done
}

# Before a kill: the guardian of run $pid, if it started, in GUARD (this
# guest has no pgrep; the guardian is nobody's child, and the one run's);
# SETUP is true once the run wrote its record (its signal handlers came first)
look_at_run() {
	GUARD=$(guardian_of "$pid")
	SETUP=false
	[ ! -s /run/rtla/osnoise.state ] || SETUP=true
}

# kill_in_teardown ARGS...: rtla ARGS -c 1 -d 30s -q, ended by SIGINT at a
# random point and SIGKILLed in its teardown: the guardian finishes it, and
# everything is back within 1 s of the end (pid: the run's)
kill_in_teardown() {
	"$RTLA" "$@" -c 1 -d 30s -q >out.txt 2>err.txt &
	pid=$!
	nap_random 3000
	look_at_run
	kill -INT "$pid"
	nap_random 300
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" || true
	ended
	settled_in_time || return 1
	echo "# killed in its teardown: restored $MS ms after the end" >&3
}

# sleep a random 0 to $1 ms
nap_random() {
	local ms=$((RANDOM % $1))
	sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
}

# kill_one SIGNAL TOOL...: TOOL -d 30s (-q unless a hist, which has none),
# SIGNAL after a random 0-3 s, then the check
kill_one() {
	local sig=$1 at end quiet=-q
	shift
	if [[ " $* " == *" hist "* ]]; then quiet=; fi
	# shellcheck disable=SC2086
	"$RTLA" "$@" -c 1 -d 30s $quiet >out.txt 2>err.txt &
	pid=$!
	nap_random 3000
	look_at_run
	now_ms
	at=$NOW
	kill -"$sig" "$pid"
	status=0
	wait "$pid" || status=$?
	ended
	end=$END
	settled_in_time || { echo "$* ended by SIG$sig"; return 1; }
	echo "# SIG$sig $1: ended $((end - at)) ms after the signal (status $status)," \
		"restored $MS ms after the end" >&3
}

untrace snapshot_all all_unchanged settled_in_time kill_one kill_in_teardown
