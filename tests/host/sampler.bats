#!/usr/bin/env bats
# The sampler backend on this machine's kernel (no osnoise tracer): tables,
# attribution of a competing task, the private tracefs instance removed on
# every way out, stop conditions and bad input. Needs root and tracefs.

load ../lib/helper
load lib/sampler
bats_require_minimum_version 1.5.0

setup() {
	needs_tracefs
	INSTANCE=rtla_sampler_
	T=$BATS_TEST_TMPDIR
	NCPU=$(getconf _NPROCESSORS_ONLN)
	LAST=$((NCPU - 1))
}

teardown() {
	[ -z "${BUSY:-}" ] || kill "$BUSY" 2>/dev/null || true
	[ -z "${BG:-}" ] || kill -9 "$BG" 2>/dev/null || true
}

# check_record FILE COMMAND: FILE holds one run record of COMMAND ("hwnoise" or
# "osnoise top") measured by the sampler: the envelope every record has
# (rtla(1), JSON RECORDS), then the backend and per-CPU counts named *_count
check_record() {
	python3 - "$1" "$2" "$(cat "$BATS_TEST_DIRNAME/../../VERSION")" "$(uname -n)" "$(uname -r)" <<-'EOF'
		import json, re, sys
		path, command, version, host, kernel = sys.argv[1:]
		d = json.load(open(path))
		keys = list(d)
		assert keys[:9] == ["schema", "tool", "version", "command", "host", "kernel",
		                    "started", "duration_s", "verdict"], keys
		schema = "rtla-" + command.replace(" ", "-")
		assert d["schema"] == {"name": schema, "version": 2}, d["schema"]
		assert d["tool"] == "rtla" and d["version"] == version, (d["tool"], d["version"])
		assert d["command"] == command, d["command"]
		assert d["host"] == host and d["kernel"] == kernel, (d["host"], d["kernel"])
		assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", d["started"]), d["started"]
		assert isinstance(d["duration_s"], (int, float)) and d["duration_s"] > 0, d["duration_s"]
		assert d["verdict"] == "passed" and d["stop"] is None, (d["verdict"], d["stop"])
		assert d["backend"] == "sampler", d["backend"]
		counts = ["hw_count", "nmi_count"]
		if command == "osnoise top":
		    counts += ["irq_count", "softirq_count", "thread_count"]
		assert d["cpus"], "no cpus"
		for c in d["cpus"]:
		    assert [k for k in c if k.endswith("_count")] == counts, list(c)
		    assert all(isinstance(c[k], int) for k in counts), c
		    assert not {"hw", "nmi", "irq", "softirq", "thread"} & set(c), list(c)
	EOF
}

# every row of the table: CPU #periods then N numeric columns
check_rows() {
	local ncols=$1 rows=0
	while read -r line; do
		[[ $line =~ ^[0-9]+\ \#[0-9]+ ]] || continue
		set -- $line
		[ $# -eq $((ncols + 2)) ] || { echo "bad row: $line"; return 1; }
		rows=$((rows + 1))
	done <"$T/out"
	echo "$rows"
}

@test "sampler: osnoise top on each CPU prints a well-formed table and removes its instance" {
	for cpu in $(seq 0 "$LAST"); do
		start_bg osnoise top --backend sampler -c "$cpu" -d 2s -q
		finish_bg
		[ "$status" -eq 0 ]
		grep -qx 'rtla osnoise top: sampler backend: measured from user space, noise attributed from trace events' "$T/err"
		grep -q 'Operating System Noise' "$T/out"
		grep -q '^CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max Single          HW          NMI          IRQ      Softirq       Thread$' "$T/out"
		[ "$(check_rows 10)" = 1 ]
		grep -qE "^ +$cpu #[12] " "$T/out"
		instance_gone "$BG"
	done
}

@test "sampler: hwnoise on all CPUs prints HW and NMI only" {
	start_bg hwnoise --backend sampler -d 2s -q
	finish_bg
	[ "$status" -eq 0 ]
	grep -q 'Hardware-related Noise' "$T/out"
	grep -q '^CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max Single          HW          NMI$' "$T/out"
	[ "$(check_rows 7)" = "$NCPU" ]
	instance_gone "$BG"
}

@test "sampler: a busy task pinned to a measured CPU is Thread noise" {
	cp /bin/sh "$T/smp_busy"
	taskset -c "$LAST" "$T/smp_busy" -c 'while :; do :; done' 3>&- &
	BUSY=$!
	start_bg osnoise top --backend sampler -c "$LAST" -d 3s -q --on-end trace,file="$T/trace.txt"
	finish_bg
	[ "$status" -eq 0 ]
	row=$(grep -E "^ +$LAST #" "$T/out")
	set -- $row
	echo "thread count: ${12}"
	[ "${12}" -gt 0 ]
	grep -qE ' thread .*switch:smp_busy\[' "$T/trace.txt"
}

@test "sampler: the instance is removed on SIGINT, SIGTERM and SIGHUP" {
	for sig in INT TERM HUP; do
		start_bg osnoise top --backend sampler -d 60s -q
		wait_instance "$BG"
		sleep 1
		kill -"$sig" "$BG"
		finish_bg
		[ "$status" -eq 0 ]
		grep -q '^CPU Period' "$T/out"
		instance_gone "$BG"
	done
}

@test "sampler: a reader of stdout that goes away ends the run quietly and removes the instance" {
	mkfifo "$T/fifo"
	# -d 50s: only the reader leaving ends it sooner; timeout 40 is the hang
	# guard (rtla's own pid, which names its instance, in $T/pid)
	timeout 40 bash -c 'echo $$ >"$0"; exec "$@"' "$T/pid" \
		"$RTLA" osnoise top --backend sampler -c 0 -d 50s >"$T/fifo" 2>"$T/err" 3>&- &
	BG=$!
	head -c1 <"$T/fifo" >/dev/null
	status=0
	wait "$BG" || status=$?
	echo "status $status: $(cat "$T/err")"
	[ "$status" -ne 124 ] ||
		{ echo "osnoise top did not end within 40 s (its reader left after one byte)"; false; }
	[ "$status" -eq 0 ]
	[ ! -s "$T/err" ]
	instance_gone "$(cat "$T/pid")"
}

@test "sampler: the instance is removed when setup fails (-P d: on pinned spinners)" {
	start_bg osnoise top --backend sampler -P d:100ms:1s -d 2s -q
	finish_bg
	[ "$status" -eq 1 ]
	grep -q '^rtla osnoise top: .*SCHED_DEADLINE' "$T/err"
	[ "$(wc -l <"$T/err")" -eq 1 ]
	instance_gone "$BG"
}

@test "sampler: rtla and its guardian killed by SIGKILL leave an instance the next run removes" {
	start_bg hwnoise --backend sampler -d 60s -q
	wait_instance "$BG"
	# with its guardian: alone, rtla's SIGKILL is undone by it (guardian.bats)
	kill -9 "$(guardian_of "$BG")" "$BG"
	wait "$BG" || true
	[ -d "$TRACING/instances/rtla_sampler_$BG" ]
	old=$BG
	start_bg hwnoise --backend sampler -d 1s -q
	finish_bg
	[ "$status" -eq 0 ]
	grep -q "^rtla hwnoise: removed instance rtla_sampler_$old left by a killed rtla run (pid $old)" "$T/err"
	instance_gone "$old"
	instance_gone "$BG"
}

@test "sampler: -s stops the run with exit 2 and -t saves the gap list" {
	start_bg osnoise top --backend sampler -d 20s -q -s 1 -t "$T/stop.txt"
	finish_bg
	[ "$status" -eq 2 ]
	grep -q '^osnoise hit stop tracing$' "$T/out"
	grep -q "Saving trace to $T/stop.txt" "$T/out"
	grep -q '^# stop: single noise of [0-9]* us on cpu [0-9]*$' "$T/stop.txt"
	grep -qE '^ +[0-9]+\.[0-9]{9} +[0-9]+ +[0-9]+ (hw|irq|softirq|thread|nmi)' "$T/stop.txt"
	instance_gone "$BG"
}

@test "sampler: -S stops on a period's total noise; continue keeps measuring" {
	start_bg hwnoise --backend sampler -d 20s -q -S 1
	finish_bg
	[ "$status" -eq 2 ]
	grep -q '^osnoise hit stop tracing$' "$T/out"
	start_bg osnoise top --backend sampler -d 3s -q -D -s 1 --on-threshold continue
	finish_bg
	[ "$status" -eq 0 ]
	[ "$(grep -c 'continuing as asked' "$T/err")" -ge 2 ]
	! grep -q 'hit stop tracing' "$T/out" || false
	instance_gone "$BG"
}

@test "sampler: -J and --json-file record the backend" {
	# --json-file: the record in the file, the table still on stdout
	start_bg hwnoise --backend sampler -d 1s -q --json-file "$T/run.json"
	finish_bg
	[ "$status" -eq 0 ]
	grep -q 'Hardware-related Noise' "$T/out"
	check_record "$T/run.json" hwnoise
	# -J: the record alone on stdout (no tables, as with -q), nothing else
	start_bg osnoise top --backend sampler -c 0 -d 1s -J
	finish_bg
	[ "$status" -eq 0 ]
	check_record "$T/out" "osnoise top"
	[ ! -s "$T/err" ]
	instance_gone "$BG"
}

@test "sampler: --warm-up and -P f: (with its warning) still measure" {
	start_bg hwnoise --backend sampler -c 0 -d 1s -q --warm-up 1
	finish_bg
	[ "$status" -eq 0 ]
	[ "$(check_rows 7)" = 1 ]
	start_bg osnoise top --backend sampler -c 0 -r 500000 -P f:1 -d 1s -q
	finish_bg
	[ "$status" -eq 0 ]
	! grep -q 'starve' "$T/err" || false
	start_bg osnoise top --backend sampler -c 0 -P f:1 -d 1s -q
	finish_bg
	[ "$status" -eq 0 ]
	grep -q '^rtla osnoise top: warning: -P f:1 with runtime == period.*starve' "$T/err"
}

@test "sampler: --backend tracer fails clearly on a kernel without the tracer" {
	grep -qw osnoise "$TRACING/available_tracers" && skip "this kernel has the osnoise tracer"
	run --separate-stderr "$RTLA" osnoise top --backend tracer -d 1s -q
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ $stderr == "rtla osnoise top: "*"no osnoise tracer"*"--backend sampler" ]]
	run --separate-stderr "$RTLA" hwnoise --backend tracer -d 1s -q
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ $stderr == "rtla hwnoise: "*"no osnoise tracer"* ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "sampler: auto picks the sampler here and says so once" {
	grep -qw osnoise "$TRACING/available_tracers" && skip "this kernel has the osnoise tracer"
	start_bg hwnoise -c 0 -d 1s -q
	finish_bg
	[ "$status" -eq 0 ]
	[ "$(grep -c 'measuring with the sampler' "$T/err")" -eq 1 ]
	grep -qx 'rtla hwnoise: the kernel has no osnoise tracer: measuring with the sampler backend' "$T/err"
	grep -qx 'rtla hwnoise: sampler backend: measured from user space, noise attributed from trace events' "$T/err"
	run ! grep -q 'sampler' "$T/out"
}

@test "sampler: the backend's note goes to stderr in top and hist; stdout holds upstream's text" {
	# hist has no -q
	for cmd in "osnoise top -q" "osnoise hist" "hwnoise -q" "hwnoise hist"; do
		echo "$cmd"
		# shellcheck disable=SC2086
		start_bg $cmd --backend sampler -c 0 -d 1s
		finish_bg
		[ "$status" -eq 0 ]
		# the prefix names the words typed: rtla osnoise top, rtla hwnoise hist...
		grep -qx "rtla ${cmd% -q}: sampler backend: measured from user space, noise attributed from trace events" "$T/err"
		run ! grep -q 'sampler' "$T/out"
	done
}

@test "sampler: an --on-end action's output comes after the final table, as upstream's" {
	for cmd in "hwnoise -q" "osnoise hist"; do
		echo "$cmd"
		# shellcheck disable=SC2086
		start_bg $cmd --backend sampler -c 0 -d 1s --on-end 'shell,command=echo END-ACTION'
		finish_bg
		[ "$status" -eq 0 ]
		[ "$(tail -n 1 "$T/out")" = "END-ACTION" ]
		[ "$(grep -c END-ACTION "$T/out")" -eq 1 ]
	done
}

@test "sampler: bad input is refused as with the tracer backend" {
	run "$RTLA" osnoise top --backend sampler -c 9999 -d 1s
	[ "$status" -eq 1 ]
	[[ $output == "rtla osnoise top: Invalid -c cpu list: '9999': "* ]]
	run "$RTLA" osnoise top --backend nonsense
	[ "$status" -eq 1 ]
	[[ $output == "rtla osnoise top: Invalid --backend: 'nonsense'"* ]]
	run "$RTLA" hwnoise --backend sampler -p 500000 -d 1s
	[ "$status" -eq 1 ]
	[[ $output == "rtla hwnoise: Runtime longer than the period"* ]]
	run "$RTLA" osnoise top --backend sampler -T 1x -d 1s
	[ "$status" -eq 1 ]
	[[ $output == "rtla osnoise top: Invalid -T threshold: '1x'"* ]]
	run "$RTLA" osnoise top --backend sampler -e sched -d 1s
	[ "$status" -eq 1 ]
	[ "$output" = "rtla osnoise top: -e needs the tracer backend (the kernel osnoise tracer)" ]
	run "$RTLA" osnoise top --backend sampler -C -d 1s
	[ "$status" -eq 1 ]
	[ "$output" = "rtla osnoise top: -C needs the tracer backend (the kernel osnoise tracer)" ]
	[ -z "$(ls "$TRACING/instances" | grep rtla_sampler_)" ] ||
		[ -n "$(pgrep -x rtla)" ]
}

@test "sampler: a run ended by a signal before -d is 'interrupted' in the record, exit 0" {
	start_bg hwnoise --backend sampler -c 0 -d 30s -J
	sleep 2
	kill -INT "$BG"
	wait "$BG" || status=$?
	[ "${status:-0}" -eq 0 ]
	python3 - "$T/out" <<-'PY'
		import json, sys
		d = json.load(open(sys.argv[1]))
		assert d["verdict"] == "interrupted", d["verdict"]
		assert d["requested_duration_s"] == 30 and d["duration_s"] < 30, d
	PY
}

@test "sampler: a run that reaches -d is 'passed'; -J keeps stdout for the record alone" {
	run --separate-stderr "$RTLA" hwnoise --backend sampler -c 0 -d 1s -J \
		--on-end shell,command='echo from-the-action'
	[ "$status" -eq 0 ]
	[[ $stderr == *from-the-action* ]]
	printf '%s' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["verdict"] == "passed" and d["requested_duration_s"] == 1, d'
}

@test "sampler: every threshold hit is in the record, also when continue resumed the run" {
	run --separate-stderr "$RTLA" hwnoise --backend sampler -c 0 -d 3s -S 1 -J \
		--on-threshold shell,command=true --on-threshold continue
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["verdict"] == "passed", d["verdict"]
assert len(d["hits"]) >= 1, d["hits"]
for h in d["hits"]:
    assert h["condition"] == "total" and h["cpu"] == 0 and h["value_us"] > 1, h
    assert h["actions"] == {"done_count": 2, "failed": None, "continued": True}, h'
}

@test "sampler: an action failing before continue ends the chain and the run: exit 2" {
	run --separate-stderr "$RTLA" hwnoise --backend sampler -c 0 -d 10s -S 1 -J \
		--on-threshold shell,command='exit 1' --on-threshold continue
	[ "$status" -eq 2 ]
	[[ $stderr == *"rtla hwnoise: --on-threshold: action 1 (shell) failed: the command did not exit with 0; the rest of the chain is skipped"* ]]
	printf '%s' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["verdict"] == "stopped" and len(d["hits"]) == 1, d
a = d["hits"][0]["actions"]
assert a["failed"]["index"] == 1 and a["failed"]["action"] == "shell" and not a["continued"], a'
}

@test "sampler: a CPU without a completed period has null figures and a reason, never 0" {
	run --separate-stderr "$RTLA" hwnoise --backend sampler -c 0 -d 1s -p 2000000 -r 1500000 -J
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
c = json.load(sys.stdin)["cpus"][0]
assert c["periods"] == 0 and c["reason"], c
assert c["cpu_available_pct"] is None and c["noise_us"] is None, c'
}

@test "sampler: without root it refuses figures it cannot attribute; --unattributed records why" {
	cp "$RTLA" "$T/rtla"
	chmod 755 "$T" "$T/rtla"
	cd "$T"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$T/rtla" hwnoise -c 0 -d 1s
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "rtla hwnoise: sampler: no trace events to attribute noise with (it needs root; -D says why): every gap would count as HW noise; give --unattributed to measure anyway" ]
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$T/rtla" hwnoise --backend sampler --unattributed -c 0 -d 1s -J
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["degraded"].startswith("sampler without trace events"), d["degraded"]'
}

# A busy SCHED_FIFO task on CPU $1 in bursts of BURST ms every CYCLE ms, its pid in BUSY
start_bursts() {
	taskset -c "$1" chrt -f 1 bash -c '
		while :; do
			end=$((${EPOCHREALTIME/./} + '"$2"' * 1000))
			while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do :; done
			sleep 0.'"$3"'
		done' 3>&- &
	BUSY=$!
}

@test "under load: Runtime is the time measured, at least periods x runtime, never more than the run lasted" {
	# (the same holds of the kernel's tracer, which ends a period the same way)
	# a period ends at the first clock reading at or past its runtime: one
	# whose end falls into a burst lasts longer than -r, with the tracer too
	start_bursts "$LAST" 230 170
	t0=${EPOCHREALTIME/./}
	run --separate-stderr timeout 30 "$RTLA" osnoise top --backend sampler -c "$LAST" \
		-p 500000 -r 250000 -d 4s -q --json-file "$T/r.json"
	wall_us=$((${EPOCHREALTIME/./} - t0))
	kill "$BUSY"
	echo "status $status, wall $wall_us us: $output"
	[ "$status" -eq 0 ]
	python3 - "$T/r.json" "$LAST" "$wall_us" <<-'EOF'
		import json, sys
		d = json.load(open(sys.argv[1]))
		cpu, wall = int(sys.argv[2]), int(sys.argv[3])
		c = [c for c in d["cpus"] if c["cpu"] == cpu][0]
		periods, runtime, noise = c["periods"], c["runtime_us"], c["noise_us"]
		print(f"cpu {cpu}: {periods} periods, runtime {runtime} us "
		      f"({runtime - periods * 250000} us over {periods} x 250000), noise {noise} us, "
		      f"the run lasted {wall} us")
		assert periods >= 4, "fewer periods than a 4 s run of 500 ms periods holds"
		assert runtime >= periods * 250000, "a period shorter than its runtime"
		assert runtime <= wall, "more time measured than the run lasted"
		# what is not noise is the time before each period's end: -r at most
		# (1 us a period for the rounding to us)
		assert runtime - noise <= periods * 250001, "more noise-free time than -r a period"
		assert 0 < noise <= runtime, "the bursts were not seen, or more noise than runtime"
	EOF
}

# A container's cpuset shows as the process's affinity: under taskset the
# user-space workloads default to the CPUs rtla may run on, and the record
# says which were measured and which were allowed.
@test "sampler: under taskset -c 0 only CPU 0 is measured, and the record says so" {
	if [ "$NCPU" -lt 2 ]; then skip "needs two CPUs"; fi
	run -0 taskset -c 0 "$RTLA" osnoise --backend sampler -d 1s -q --json-file "$T/top.json"
	run -0 taskset -c 0 "$RTLA" timerlat --backend sampler -d 1s -q --json-file "$T/tl.json"
	python3 - "$T/top.json" "$T/tl.json" <<-'EOF2'
		import json, sys
		for path in sys.argv[1:]:
		    d = json.load(open(path))
		    o = d["options"]
		    assert (o["cpus"], o["measured_cpus"], o["allowed_cpus"]) == ("0", "0", "0"), (path, o)
		    cpus = [c["cpu"] for c in d["cpus"]]
		    assert cpus == [0], (path, cpus)
	EOF2
}

@test "sampler: -c with a CPU outside the allowed ones is one line, exit 1, before any work" {
	if [ "$NCPU" -lt 2 ]; then skip "needs two CPUs"; fi
	run -1 --separate-stderr taskset -c 0 "$RTLA" osnoise --backend sampler -c "$LAST" -d 1s -q
	[ "$stderr" = "rtla osnoise: Invalid -c cpu list: '$LAST': CPU $LAST is outside the CPUs this process may run on (0)" ]
	[ -z "$output" ]
	run -1 --separate-stderr taskset -c 0 "$RTLA" timerlat --backend sampler -c "0-$LAST" -d 1s -q
	[ "$stderr" = "rtla timerlat: Invalid -c cpu list: '0-$LAST': CPU 1 is outside the CPUs this process may run on (0)" ]
	run -0 "$RTLA" osnoise --backend sampler -d 1s -q -J
	echo "$output" | python3 -c 'import json, sys; o = json.load(sys.stdin)["options"]; assert o["measured_cpus"] == o["allowed_cpus"] == o["cpus"], o'
}

# The gap ring holds 2,048 gaps; 3,000 a second would overflow it within a
# second between two drains of the tick. The collector drains it early (at
# half full) instead: every injection is seen, none lost.
@test "sampler: 3,000 gaps a second on a CPU: its ring is drained early, no gap lost" {
	if [ "$NCPU" -lt 2 ]; then skip "needs two CPUs"; fi
	${CC:-cc} -O2 -Wall -o "$T/inject" "$BATS_TEST_DIRNAME/../../bench/sampler/inject.c"
	start_bg osnoise top --backend sampler -c "$LAST" -d 4s -q --json-file "$T/r.json"
	wait_instance "$BG"
	sleep 0.5
	# 7,500 injections of 2 us, one every 333 us: 2.5 s
	"$T/inject" "$LAST" 7500 333 2 "$T/inject.log"
	wait "$BG"
	python3 - "$T/r.json" "$LAST" <<-'EOF2'
		import json, sys
		d = json.load(open(sys.argv[1]))
		c = [c for c in d["cpus"] if c["cpu"] == int(sys.argv[2])][0]
		print(f"lost {d['lost_samples']}, thread noise {c['thread_count']}, "
		      f"all noise {sum(v for k, v in c.items() if k.endswith('_count'))}")
		assert d["lost_samples"] == 0, "gaps lost"
		assert c["thread_count"] >= 7000, "the injections were not seen"
	EOF2
}

# A quiet CPU (no gap of 100 us) sizes the collector's slice at a second;
# a burst of 2,500 gaps right after a drain would then overflow the ring
# (2,048 gaps)
# before the slice ends. Its spinner wakes the collector at half full: no
# gap is lost. A burst follows every second table, after a quiet second.
@test "sampler: a burst after a quiet second: the spinner wakes the collector, no gap lost" {
	if [ "$NCPU" -lt 2 ]; then skip "needs two CPUs"; fi
	${CC:-cc} -O2 -Wall -o "$T/inject" "$BATS_TEST_DIRNAME/../../bench/sampler/inject.c"
	"$RTLA" osnoise top --backend sampler -c "$LAST" -T 100 -d 7s --json-file "$T/r.json" |
		while IFS= read -r line; do
			case $line in *"Operating System Noise"*) n=$((${n:-0} + 1)) ;; *) continue ;; esac
			# 2,500 injections of 110 us, one every 250 us: 0.63 s
			if [ $((n % 2)) -eq 0 ]; then
				"$T/inject" "$LAST" 2500 250 110 "$T/inject.log"
			fi
		done
	python3 - "$T/r.json" "$LAST" <<-'EOF2'
		import json, sys
		d = json.load(open(sys.argv[1]))
		c = [c for c in d["cpus"] if c["cpu"] == int(sys.argv[2])][0]
		print(f"lost {d['lost_samples']}, thread noise {c['thread_count']}")
		assert d["lost_samples"] == 0, "gaps lost"
		assert c["thread_count"] >= 7000, "the three bursts were not seen"
	EOF2
}
