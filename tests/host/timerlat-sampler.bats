#!/usr/bin/env bats
# timerlat's sampler backend on this machine's kernel (no timerlat tracer):
# top and hist measured by the timerlatu/N sleepers, the cause of a late
# wake-up named, the private instance and the sleepers gone on every way
# out, the options only the tracer runs refused, a run without root, and
# the record. Needs root and tracefs.

load ../lib/helper
load lib/sampler
bats_require_minimum_version 1.5.0

setup() {
	needs_tracefs
	INSTANCE=rtla_timerlat_sampler_
	T=$BATS_TEST_TMPDIR
	NCPU=$(getconf _NPROCESSORS_ONLN)
	LAST=$((NCPU - 1))
	# the runs that carry it (RTLA_GUARD_TAG=$TAG start_bg ...) are this
	# test's: other rtla runs on the machine have sleepers and instances too
	TAG=timerlat-sampler-bats-$$-$BATS_TEST_NUMBER
}

teardown() {
	local pid
	[ -z "${HOG:-}" ] || kill "$HOG" 2>/dev/null || true
	[ -z "${BG:-}" ] || kill -9 "$BG" 2>/dev/null || true
	for pid in $(tagged); do
		kill -9 "$pid" 2>/dev/null || true
	done
}

# the timerlatu/N threads of the tagged processes, "/proc/PID/task/TID/comm:NAME" a line
sleepers() {
	local pid
	for pid in $(tagged); do
		grep -sH '^timerlatu/' /proc/"$pid"/task/[0-9]*/comm || true
	done
}

# wait_sleepers: poll up to 5 s until a tagged run has a timerlatu/N thread
# (a run makes its instance first, then starts its sleepers, which name
# themselves)
wait_sleepers() {
	for _ in $(seq 500); do
		[ -z "$(sleepers)" ] || return 0
		sleep 0.01
	done
	echo "no timerlatu/N thread 5 s after the instance appeared"
	return 1
}

# until_gone PID: poll up to 2 s (the hang guard; the guardian's promise is
# 1 s, guardian.bats) for the instance of tagged run PID and every tagged
# process (the run's threads, timerlatu/N among them, and its guardian) to be
# gone; prints what is left, or how long after the call it was seen gone
until_gone() {
	local left ms t0=${EPOCHREALTIME/./}
	while :; do
		left=$(tagged)
		ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
		if [ ! -e "$TRACING/instances/$INSTANCE$1" ] && [ -z "$left" ]; then
			echo "gone $ms ms after the end"
			return 0
		fi
		[ "$ms" -lt 2000 ] || break
		sleep 0.01
	done
	echo "2 s after the end: instance $INSTANCE$1 $([ -e "$TRACING/instances/$INSTANCE$1" ] &&
		echo present || echo gone); processes left: ${left:-none}; sleepers: $(sleepers)"
	return 1
}

# the CPU row of top for CPU $1 in $T/out (the last printed): prints
# "COUNT IRQ_CUR IRQ_MIN IRQ_AVG IRQ_MAX THR_CUR THR_MIN THR_AVG THR_MAX"
top_row() {
	local row
	row=$(grep -E "^ +$1 #[0-9]+ +\|" "$T/out" | tail -n 1)
	[ -n "$row" ] || { echo "no row of CPU $1"; return 1; }
	# shellcheck disable=SC2086
	set -- ${row//|/ }
	echo "${2#\#} $3 $4 $5 $6 $7 $8 $9 ${10}"
}

@test "timerlat top and hist through the sampler on the last CPU: both columns, ~2000 wake-ups, no instance left behind" {
	start_bg timerlat top --backend sampler -c "$LAST" -d 2 -q
	finish_bg
	[ "$status" -eq 0 ]
	grep -qx '         Timer Latency, sampler backend: IRQ at hrtimer_expire_entry, Thread at the clock read after the wake-up' "$T/out"
	grep -qx 'CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max' "$T/out"
	grep -qx 'rtla timerlat top: sampler backend: wake-up latency measured from user space (Thread: the clock read after the wake-up, as cyclictest; IRQ: at hrtimer_expire_entry), late wake-ups explained from trace events' "$T/err"
	# one CPU row
	[ "$(grep -cE '^ +[0-9]+ #' "$T/out")" -eq 1 ]
	row=$(top_row "$LAST")
	set -- $row
	echo "count $1, IRQ $2 $3 $4 $5, thread $6 $7 $8 $9"
	# 2 s of 1000 us periods: about 2000 (wide bounds: a loaded machine
	# skips periods it overran; a count of every other period, or twice
	# each, is out)
	[ "$1" -ge 1500 ]
	[ "$1" -le 2100 ]
	for v in "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9"; do
		[[ $v =~ ^[0-9]+$ ]] || { echo "not a figure: '$v'"; false; }
	done
	instance_gone "$BG"

	start_bg timerlat hist --backend sampler -c "$LAST" -d 2 -E 20 -b 50 --with-zeros
	finish_bg
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p "$T/out")" = "# RTLA timerlat histogram" ]
	grep -qx '# Sampler backend: IRQ at hrtimer_expire_entry, Thr at the clock read after the wake-up' "$T/out"
	grep -qx "$(printf 'Index   IRQ-%03d   Thr-%03d' "$LAST" "$LAST")" "$T/out"
	# -E 20 -b 50 --with-zeros: rows 0, 50, ... 950
	[ "$(grep -cE '^[0-9]+ ' "$T/out")" -eq 20 ]
	[ "$(grep -E '^[0-9]+ ' "$T/out" | cut -d' ' -f1 | tr '\n' ' ')" = "$(seq -s ' ' 0 50 950) " ]
	row=$(grep '^count:' "$T/out" | head -n 1)
	set -- $row
	echo "hist counts: IRQ $2, thread $3"
	[ "$3" -ge 1500 ]
	[ "$3" -le 2100 ]
	[ "$2" -ge 1500 ]
	[ "$2" -le "$3" ]
	grep -qE '^over: +[0-9]+ +[0-9]+ *$' "$T/out"
	instance_gone "$BG"
}

@test "timerlat -T: a higher-priority SCHED_FIFO task is named the cause of the late wake-up, in the text and the record" {
	command -v cc >/dev/null || skip "needs cc to build the competing task"
	# ~3 ms of spinning every ~20 ms: a wake-up due in a burst waits for its
	# end, and the first burst comes before most of what else delays one here
	cat >"$T/tl_hog.c" <<-'EOF'
		#include <time.h>
		static long long now_us(void)
		{
			struct timespec ts;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
		}
		int main(void)
		{
			struct timespec nap = { 0, 17 * 1000 * 1000 };

			for (;;) {
				long long end = now_us() + 3000;

				while (now_us() < end)
					;
				nanosleep(&nap, NULL);
			}
		}
	EOF
	cc -O2 -o "$T/tl_hog" "$T/tl_hog.c"
	# SCHED_FIFO 50 beside a sleeper at -P f:10: the hog runs first
	taskset -c "$LAST" chrt -f 50 "$T/tl_hog" 3>&- &
	HOG=$!
	for _ in $(seq 100); do
		[ "$(cat "/proc/$HOG/comm" 2>/dev/null)" != tl_hog ] || break
		sleep 0.01
	done
	[ "$(cat "/proc/$HOG/comm")" = tl_hog ]
	# -d 20: the hang guard; the first burst stops it
	start_bg timerlat top --backend sampler -c "$LAST" -P f:10 -T 1500 -d 20 -q \
		--json-file "$T/r.json"
	finish_bg
	[ "$status" -eq 2 ]
	grep -qx 'timerlat hit stop tracing' "$T/out"
	grep -qx "## CPU $LAST hit stop tracing, analyzing it ##" "$T/out"
	grep -qE '^  Thread latency: +[0-9.]+ us \(100%\)$' "$T/out"
	# the largest cause is the first under "What the CPU did meanwhile:"
	first=$(grep -A1 -x '  What the CPU did meanwhile:' "$T/out" | tail -n 1)
	echo "largest cause: $first"
	[[ $first =~ ^\ +thread\ tl_hog:$HOG\ +([0-9]+)\.[0-9]+\ us ]]
	[ "${BASH_REMATCH[1]}" -ge 1000 ]
	python3 - "$T/r.json" "$LAST" "$HOG" <<-'EOF'
		import json, sys
		d = json.load(open(sys.argv[1]))
		cpu, hog = int(sys.argv[2]), int(sys.argv[3])
		assert d["verdict"] == "stopped", d["verdict"]
		assert d["backend"] == "sampler", d["backend"]
		a = d["analysis"]
		assert isinstance(a, list) and len(a) == 1, a
		assert a[0]["cpu"] == cpu and a[0]["latency_ns"] >= 1500000, a[0]
		c = a[0]["causes"][0]
		print("largest cause in the record:", c)
		assert c["kind"] == "thread" and c["pid"] == hog and c["name"] == "tl_hog", c
		assert c["ns"] >= 1000000, c
		assert sum(x["ns"] for x in a[0]["causes"]) <= a[0]["latency_ns"], a[0]
	EOF
	instance_gone "$BG"
}

# kill_guardian PID: SIGKILL the guardian of run PID and wait (2 s at most)
# until it is dead: what the run leaves is then its own teardown's doing
kill_guardian() {
	local g state
	g=$(guardian_of "$1")
	[ -n "$g" ] || { echo "run $1 has no guardian"; return 1; }
	kill -9 "$g"
	for _ in $(seq 200); do
		state=$(sed -E 's/^[0-9]+ \(.*\) (.).*/\1/' "/proc/$g/stat" 2>/dev/null) || return 0
		[ "$state" != Z ] || return 0
		sleep 0.01
	done
	echo "guardian $g of run $1 still alive 2 s after SIGKILL"
	return 1
}

@test "timerlat sampler: SIGINT, SIGTERM and SIGKILL leave no instance and no timerlatu thread" {
	for sig in INT TERM KILL; do
		echo "SIG$sig"
		RTLA_GUARD_TAG=$TAG start_bg timerlat top --backend sampler -c "$LAST" -d 60 -q
		wait_instance "$BG"
		wait_sleepers
		# SIGINT and SIGTERM end the run through its teardown: without the
		# guardian, so that the instance is gone by the teardown alone
		[ "$sig" = KILL ] || kill_guardian "$BG"
		kill -"$sig" "$BG"
		finish_bg
		if [ "$sig" = KILL ]; then
			[ "$status" -eq 137 ]
		else
			# the teardown: the final table, exit 0
			[ "$status" -eq 0 ]
			grep -qE "^ +$LAST #[0-9]+ +\|" "$T/out"
		fi
		# after SIGKILL the guardian removes the instance
		until_gone "$BG"
	done
}

@test "timerlat sampler: options only the tracer runs are refused; --backend bogus and --backend tracer fail clearly" {
	for verb in top hist; do
		opts=(-k -u -U "-s 10" --dump-tasks "--deepest-idle-state 1" "-e sched" -C)
		# --aa-only is top's alone (hist refuses it as unknown, as upstream)
		[ "$verb" = hist ] || opts+=("--aa-only 10")
		for opt in "${opts[@]}"; do
			echo "timerlat $verb --backend sampler $opt"
			# shellcheck disable=SC2086
			run --separate-stderr "$RTLA" timerlat "$verb" --backend sampler $opt -c "$LAST" -d 1
			[ "$status" -eq 1 ]
			[ -z "$output" ]
			[ "$stderr" = "rtla timerlat $verb: ${opt%% *} needs the tracer backend (the kernel timerlat tracer)" ]
		done
	done
	run --separate-stderr "$RTLA" timerlat top --backend bogus -d 1
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "rtla timerlat top: Invalid --backend: 'bogus': use auto, tracer or sampler" ]
	if grep -qsw timerlat "$TRACING/available_tracers"; then
		echo "this kernel has the timerlat tracer: --backend tracer not tried"
		return 0
	fi
	for verb in top hist; do
		run --separate-stderr "$RTLA" timerlat "$verb" --backend tracer -c "$LAST" -d 1
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ $stderr == "rtla timerlat $verb: "*"no timerlat tracer"*"CONFIG_TIMERLAT_TRACER"* ]]
	done
}

# nobody ARGS...: rtla ARGS as user nobody (a world-readable copy), with
# what comes before "--" as a command to run it under (prlimit ...)
nobody() {
	local pre=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		pre+=("$1")
		shift
	done
	shift
	cp "$RTLA" "$T/rtla"
	chmod 755 "$T" "$T/rtla"
	cd "$T"
	run --separate-stderr "${pre[@]}" setpriv --reuid nobody --regid nogroup --clear-groups \
		"$T/rtla" "$@"
	echo "$output"
	echo "$stderr"
}

@test "timerlat sampler without root: two warnings, the thread column, a degraded record" {
	nobody -- timerlat top --backend sampler -c "$LAST" -d 1 -q
	[ "$status" -eq 0 ]
	# (a small RLIMIT_MEMLOCK would add a third warning: not rtla's to decide)
	printf '%s\n' "$stderr" >"$T/err"
	grep -qx "rtla timerlat top: warning: timerlat sampler: reading trace events needs root: no IRQ column and no explanation of late wake-ups (--unattributed measures without them, silently)" "$T/err"
	grep -qx "rtla timerlat top: warning: timerlat sampler: cannot run timerlatu/N at SCHED_FIFO 95 (.*: it needs CAP_SYS_NICE or an RLIMIT_RTPRIO of 95): the latencies include waiting behind every other task" "$T/err"
	grep -qx "rtla timerlat top: sampler backend: wake-up latency measured from user space (Thread: the clock read after the wake-up, as cyclictest), without trace events" "$T/err"
	printf '%s\n' "$output" >"$T/out"
	grep -qx '         Timer Latency, sampler backend: no IRQ column (no trace events), Thread at the clock read after the wake-up' "$T/out"
	row=$(top_row "$LAST")
	set -- $row
	[ "$1" -gt 0 ]
	[ "$2 $3 $4 $5" = "- - - -" ]
	[[ "$6 $7 $8 $9" =~ ^[0-9]+\ [0-9]+\ [0-9]+\ [0-9]+$ ]]
	nobody -- timerlat top --backend sampler -c "$LAST" -d 1 -J
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["degraded"] == "the measuring threads ran without real-time priority", d["degraded"]
assert d["explained"] is False and d["analysis"] is None, d
assert d["cpus"][0]["irq"]["count"] == 0 and d["cpus"][0]["thread"]["count"] > 0, d["cpus"]'
}

@test "timerlat sampler without root but with an RLIMIT_RTPRIO of 95: no priority warning" {
	prlimit --rtprio=95 true 2>/dev/null ||
		skip "needs CAP_SYS_RESOURCE to raise RLIMIT_RTPRIO (prlimit --rtprio=95 failed)"
	nobody prlimit --rtprio=95 -- timerlat top --backend sampler -c "$LAST" -d 1 -J
	[ "$status" -eq 0 ]
	[[ $stderr != *SCHED_FIFO* ]]
	[[ $stderr == *"reading trace events needs root"* ]]
	printf '%s' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["degraded"] is None, d["degraded"]'
}

@test "timerlat sampler --unattributed: no warning, no IRQ figures, no instance" {
	start_bg timerlat top --backend sampler --unattributed -c "$LAST" -d 2 -q
	# the instance would live as long as the run: look while it runs
	seen=
	while kill -0 "$BG" 2>/dev/null; do
		[ ! -e "$TRACING/instances/$INSTANCE$BG" ] || seen=yes
		sleep 0.05
	done
	finish_bg
	[ "$status" -eq 0 ]
	[ -z "$seen" ]
	run ! grep -q 'warning' "$T/err"
	grep -qx 'rtla timerlat top: sampler backend: wake-up latency measured from user space (Thread: the clock read after the wake-up, as cyclictest), without trace events' "$T/err"
	row=$(top_row "$LAST")
	set -- $row
	[ "$1" -gt 0 ]
	[ "$2 $3 $4 $5" = "- - - -" ]
	grep -qE '^ALL #[0-9]+ +e0 \| +- +- +- \|' "$T/out"
}

@test "timerlat sampler -J: the record names the backend and the workload, worst wake-ups per CPU" {
	run --separate-stderr "$RTLA" timerlat top --backend sampler -c "$LAST" -d 1 -J
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
cpu = int(sys.argv[1])
d = json.load(sys.stdin)
assert d["command"] == "timerlat top" and d["verdict"] == "passed", (d["command"], d["verdict"])
assert d["backend"] == "sampler" and d["workload"] == "sampler", (d["backend"], d["workload"])
assert d["degraded"] is None and d["explained"] is True, d
assert [c["cpu"] for c in d["cpus"]] == [cpu], d["cpus"]
w = d["worst_wakeups"]
assert isinstance(w, list) and [x["cpu"] for x in w] == [cpu], w
assert isinstance(w[0]["worst"], list) and w[0]["worst"], w[0]
for y in w[0]["worst"]:
    assert y["cpu"] == cpu and y["latency_ns"] > 0 and y["causes"], y
    assert y["causes"][0]["ns"] == max(c["ns"] for c in y["causes"]), y
' "$LAST"
}
