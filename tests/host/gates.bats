#!/usr/bin/env bats
# Latency gates on this machine's kernel with the sampler backend: --fail-if
# passing and failing, the JUnit file checked by xmllint against the schema
# in tests/fixtures/gates/, the Prometheus file checked by promtool and
# served by a real node_exporter (scraped with curl), rtla compare on two
# real records, and the CPU words of -c/-H. Needs root and tracefs.

load ../lib/helper
bats_require_minimum_version 1.5.0

TRACING=/sys/kernel/tracing
XSD=$BATS_TEST_DIRNAME/../fixtures/gates/junit.xsd

setup() {
	needs_root "the sampler's tracefs instance"
	mountpoint -q "$TRACING" || mount -t tracefs nodev "$TRACING" 2>/dev/null ||
		skip "needs tracefs at $TRACING"
	T=$BATS_TEST_TMPDIR
	NCPU=$(getconf _NPROCESSORS_ONLN)
}

teardown() {
	[ -z "${EXPORTER:-}" ] || { kill "$EXPORTER" 2>/dev/null; wait "$EXPORTER" 2>/dev/null; } || true
	[ -z "${BUSY:-}" ] || { kill "$BUSY" 2>/dev/null; wait "$BUSY" 2>/dev/null; } || true
}

# json FILE PYTHON-EXPR: assert the expression on the record d
json() {
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert $2, d.get('gate')" "$1"
}

@test "a failing gate: exit 2, the whole run measured, one summary line, the failures in the record" {
	run --separate-stderr "$RTLA" hwnoise --backend sampler -d 1s -q \
		--fail-if 'max_single_us>=0' --fail-if 'hw_count>=0' --json-file "$T/r.json"
	echo "status $status; stderr: $stderr"
	[ "$status" -eq 2 ]
	# the run was not stopped: the table of every CPU is there
	[ "$(grep -c '^ *[0-9]* #' <<<"$output")" -eq "$NCPU" ]
	grep -Eqx "rtla hwnoise: FAILED: cpu 0 max_single_us [0-9.]+ >= 0; 0 of $NCPU CPUs passed" \
		<<<"$stderr"
	[ "$(grep -c FAILED <<<"$stderr")" -eq 1 ]
	json "$T/r.json" "d['verdict'] == 'failed' and d['gate']['cpus_failed'] == $NCPU"
	json "$T/r.json" "len(d['gate']['failures']) == 2 * $NCPU"
	json "$T/r.json" "all(set(f) >= {'cpu', 'metric', 'value', 'limit'} for f in d['gate']['failures'])"
	json "$T/r.json" "d['gate']['failures'][0]['value'] == d['cpus'][0]['max_single_us']"
}

@test "a passing gate: exit 0, verdict passed, a summary line" {
	run --separate-stderr "$RTLA" hwnoise --backend sampler -d 1s -q \
		--fail-if 'max_single_us>10s' --fail-if 'cpu_available_pct<0.001' -J
	echo "status $status; stderr: $stderr"
	[ "$status" -eq 0 ]
	grep -qx "rtla hwnoise: passed: 2 criteria on $NCPU CPUs" <<<"$stderr"
	python3 -c 'import json, sys; d = json.loads(sys.stdin.read()); assert d["verdict"] == "passed"
assert d["gate"]["cpus_passed"] == int(sys.argv[1]) and d["gate"]["failures"] == []' "$NCPU" <<<"$output"
}

@test "-T at or above the runtime without --fail-if: one warning, upstream's exit status, lost_samples in the record" {
	run --separate-stderr "$RTLA" hwnoise --backend sampler -c 0 -d 1s -q -T 99999999999999 \
		--json-file "$T/r.json"
	echo "status $status; stderr: $stderr"
	[ "$status" -eq 0 ]
	grep -qx "rtla hwnoise: warning: -T: threshold 99999999999999 us >= runtime 750000 us: no noise can reach it, every figure would be 0" <<<"$stderr"
	json "$T/r.json" 'd["lost_samples"] == 0 and d["verdict"] in ("passed", "incomplete")'
	json "$T/r.json" '(d["verdict"] == "incomplete") == (d["missed_events"] != 0)'
}

@test "osnoise hist: a gate on a percentile, from every single noise" {
	run --separate-stderr "$RTLA" osnoise hist --backend sampler -c 0 -d 1s \
		--fail-if 'p50_us>=0' --json-file "$T/h.json" --prometheus "$T/h.prom"
	echo "status $status; stderr: $stderr"
	[ "$status" -eq 2 ]
	promtool check metrics <"$T/h.prom"
	p99=$(python3 -c 'import json, sys; print("%.10g" % (json.load(open(sys.argv[1]))["cpus"][0]["p99_us"] / 1e6))' "$T/h.json")
	grep -Eq "^rtla_noise_single_percentile_seconds\{cpu=\"0\",tool=\"osnoise hist\",backend=\"sampler\",host=\".*\",percentile=\"99\"\} $p99\$" "$T/h.prom"
	grep -Eqx "rtla osnoise hist: FAILED: cpu 0 p50_us [0-9]+ >= 0; 0 of 1 CPUs passed" <<<"$stderr"
	json "$T/h.json" "d['gate']['failures'][0]['value'] == d['cpus'][0]['p50_us']"
	# top has no single noises to rank: refused before anything is measured
	run --separate-stderr "$RTLA" osnoise top --backend sampler -d 1s --fail-if 'p99_us>5'
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "rtla osnoise top: Invalid --fail-if: 'p99_us > 5': p99_us needs every single noise: use osnoise hist or hwnoise hist" ]
}

@test "--junit: valid against the JUnit schema, a testcase per CPU and criterion, failures with values" {
	run "$RTLA" hwnoise --backend sampler -d 1s -q --fail-if 'max_single_us>=0' \
		--fail-if 'cpu_available_pct>100' --junit "$T/junit.xml"
	[ "$status" -eq 2 ]
	cat "$T/junit.xml"
	xmllint --noout --schema "$XSD" "$T/junit.xml"
	[ "$(grep -c '<testcase ' "$T/junit.xml")" -eq $((2 * NCPU)) ]
	[ "$(grep -c '<failure ' "$T/junit.xml")" -eq "$NCPU" ]
	grep -Eq '<failure type="latency gate" message="cpu 0 max_single_us [0-9.]+ &gt;= 0">cpu=0 metric=max_single_us value=[0-9.]+ limit=0 ' \
		"$T/junit.xml"
	grep -q '<testsuite name="rtla hwnoise" tests="'$((2 * NCPU))'" failures="'"$NCPU"'"' "$T/junit.xml"
	! ls "$T"/*.tmp 2>/dev/null || false
	# the schema is not a rubber stamp: a testcase without its time is refused
	sed 's/ time="0"//' "$T/junit.xml" >"$T/broken.xml"
	run ! xmllint --noout --schema "$XSD" "$T/broken.xml"
}

@test "--prometheus: promtool accepts it, node_exporter's textfile collector serves it" {
	mkdir "$T/textfile"
	run "$RTLA" hwnoise --backend sampler -d 1s -q --fail-if 'max_single_us>10s' \
		--prometheus "$T/textfile/rtla.prom"
	[ "$status" -eq 0 ]
	cat "$T/textfile/rtla.prom"
	promtool check metrics <"$T/textfile/rtla.prom"
	grep -q '^# TYPE rtla_noise_max_single_seconds gauge$' "$T/textfile/rtla.prom"

	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$T/textfile" \
		>"$T/exporter.log" 2>&1 3>&- &
	EXPORTER=$!
	for _ in $(seq 50); do
		curl -sf "http://127.0.0.1:$port/metrics" >"$T/scrape" && break
		sleep 0.1
	done
	grep '^rtla_' "$T/scrape"
	host=$(uname -n)
	for cpu in $(seq 0 $((NCPU - 1))); do
		grep -Eq "^rtla_noise_max_single_seconds\{backend=\"sampler\",cpu=\"$cpu\",host=\"$host\",tool=\"hwnoise\"\} [0-9.e+-]+$" "$T/scrape"
		grep -q "^rtla_gate_passed{backend=\"sampler\",cpu=\"$cpu\",host=\"$host\",tool=\"hwnoise\"} 1$" "$T/scrape"
	done
	# the collector read the file without an error
	grep -q '^node_textfile_scrape_error 0$' "$T/scrape"
}

@test "--junit into a directory that does not exist: exit 1 before measuring" {
	run --separate-stderr "$RTLA" hwnoise --backend sampler -d 1s --junit "$T/no/such/j.xml"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "rtla hwnoise: --junit: $T/no/such/j.xml: No such file or directory" ]
}

@test "rtla compare on two real records: a CPU taken by a busy task is a regression" {
	"$RTLA" osnoise --backend sampler -c 0 -d 1s --json-file "$T/base.json" >/dev/null
	run "$RTLA" compare "$T/base.json" "$T/base.json"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -Eq '^ *0 cpu_available_pct .* ok$' <<<"$output"

	taskset -c 0 sh -c 'while :; do :; done' &
	BUSY=$!
	"$RTLA" osnoise --backend sampler -c 0 -d 1s --json-file "$T/new.json" >/dev/null
	kill "$BUSY"
	run --separate-stderr "$RTLA" compare "$T/base.json" "$T/new.json"
	echo "$output"
	echo "$stderr"
	[ "$status" -eq 2 ]
	grep -Eq '^ *0 cpu_available_pct .* regression$' <<<"$output"
	grep -Eq '^rtla compare: FAILED: [0-9]+ regressions? beyond the limits$' <<<"$stderr"
	run "$RTLA" compare -J "$T/base.json" "$T/new.json"
	[ "$status" -eq 2 ]
	python3 -c 'import json, sys; d = json.loads(sys.stdin.read()); assert d["verdict"] == "failed"
assert any(r["metric"] == "cpu_available_pct" and r["verdict"] == "regression" for r in d["comparisons"])' <<<"$output"
	# a limit wide enough passes it
	run "$RTLA" compare --tolerance 100000 --max-increase cpu_available_pct=100 \
		--max-increase max_single_us=10000000 --max-increase max_noise_us=10000000 \
		"$T/base.json" "$T/new.json"
	[ "$status" -eq 0 ]
}

@test "rtla compare warns about records of different options and CPUs" {
	"$RTLA" hwnoise --backend sampler -d 1s --json-file "$T/a.json" >/dev/null
	"$RTLA" hwnoise --backend sampler -c 0 -r 500000 -d 1s --json-file "$T/b.json" >/dev/null
	run --separate-stderr "$RTLA" compare --tolerance 100000 "$T/a.json" "$T/b.json"
	echo "$stderr"
	grep -qx "rtla compare: warning: the records differ in option cpus: 0-$((NCPU - 1)) (BASE) vs 0 (NEW)" <<<"$stderr"
	grep -qx "rtla compare: warning: the records differ in option runtime_us: 750000 (BASE) vs 500000 (NEW)" <<<"$stderr"
	# a CPU the baseline measured and the new run did not is not a pass
	if [ "$NCPU" -gt 1 ]; then
		[ "$status" -eq 2 ]
		grep -qx "rtla compare: warning: cpu 1 is in BASE but was not measured in NEW" <<<"$stderr"
	fi
}

@test "-c online and -H online on the live machine; -c isolated says when there is none" {
	run "$RTLA" hwnoise --backend sampler -c online -H online -d 1s -J
	[ "$status" -eq 0 ]
	python3 -c 'import json, sys; d = json.loads(sys.stdin.read()); assert d["options"]["cpus"] == open("/sys/devices/system/cpu/online").read().strip()' <<<"$output"
	if [ -n "$(tr -d "\n" </sys/devices/system/cpu/isolated)" ]; then
		skip "this machine has isolated CPUs"
	fi
	run --separate-stderr "$RTLA" hwnoise --backend sampler -c isolated -d 1s
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla hwnoise: Invalid -c cpu list: 'isolated': this machine has no isolated CPU (boot with isolcpus=)" ]
}

# the examples of rtla-hwnoise(1), WRITING A LATENCY GATE, as the page has them
example() {
	"$BATS_TEST_DIRNAME/../fixtures/gates/man-example.sh" "$1"
}

@test "the man page's shell gate: passes, fails with exit 2, compares with a baseline" {
	example shell >"$T/gate.sh"
	cd "$T"
	export PATH="$(dirname "$RTLA"):$PATH" CPUS=online DURATION=1s
	MAX_SINGLE_US=10000000 MIN_AVAILABLE_PCT=0 run --separate-stderr sh gate.sh
	echo "$stderr"
	[ "$status" -eq 0 ]
	xmllint --noout --schema "$XSD" results/hwnoise.xml
	promtool check metrics <results/hwnoise.prom
	json results/hwnoise.json "d['verdict'] == 'passed'"
	[ ! -e results/compare.txt ]

	mkdir baseline
	cp results/hwnoise.json baseline/
	MAX_SINGLE_US=10000000 MIN_AVAILABLE_PCT=0 TOLERANCE=100000000 run sh gate.sh
	[ "$status" -eq 0 ]
	grep -q ' cpu_available_pct ' results/compare.txt

	# no CPU of a running machine is free of any noise for a second
	MAX_SINGLE_US=0 MIN_AVAILABLE_PCT=0 BASELINE=none run --separate-stderr sh gate.sh
	echo "$stderr"
	[ "$status" -eq 2 ]
	grep -Eq "^rtla hwnoise: FAILED: cpu [0-9]+ max_single_us [0-9.]+ > 0; [0-9]+ of $NCPU CPUs passed$" <<<"$stderr"
	grep -q '<failure ' results/hwnoise.xml
}

@test "the man page's GitLab job: its script runs the shell gate and leaves the JUnit report it names" {
	example shell >"$T/gate.sh"
	example gitlab >"$T/gitlab-ci.yml"
	cd "$T"
	mkdir ci
	mv gate.sh ci/
	# the job as a runner would run it: its variables, then each script line;
	# this machine has no isolated CPU and a test has no 10 minutes
	python3 - "$T/gitlab-ci.yml" >"$T/job.sh" <<'PY'
import shlex, sys, yaml
job = yaml.safe_load(open(sys.argv[1]))["latency-gate"]
assert job["artifacts"]["when"] == "always"
for k, v in job.get("variables", {}).items():
    print("export %s=%s" % (k, shlex.quote(str(v))))
print("export CPUS=online DURATION=1s")
print("status=0")
for line in job["script"]:
    print(line + " || status=$?")
print("echo \"REPORT=%s\"" % job["artifacts"]["reports"]["junit"])
print("echo \"PATHS=%s\"" % " ".join(job["artifacts"]["paths"]))
print("exit $status")
PY
	cat job.sh
	PATH="$(dirname "$RTLA"):$PATH" run sh job.sh
	echo "$output"
	# pass or fail is this machine's noise against the job's 20 us; 1 is not allowed
	[ "$status" -eq 0 ] || [ "$status" -eq 2 ]
	report=$(sed -n 's/^REPORT=//p' <<<"$output")
	xmllint --noout --schema "$XSD" "$report"
	for p in $(sed -n 's/^PATHS=//p' <<<"$output"); do [ -e "$p" ]; done
}
