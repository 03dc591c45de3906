#!/usr/bin/env bats
# The real-time configuration of the measured CPUs on this machine's kernel:
# rtla features -c against a capture of the machine read through --sysroot
# (rtla capture takes every file the audit reads), and --require on the
# sampler: refused, recorded "misconfigured" (record, JUnit checked against
# the schema, Prometheus by promtool), and passing. This machine isolates no
# CPU; a word that holds here is taken from the audit itself. Needs root.

load ../lib/helper
bats_require_minimum_version 1.5.0

TRACING=/sys/kernel/tracing
XSD=$BATS_TEST_DIRNAME/../fixtures/gates/junit.xsd

setup() {
	needs_root "the capture of /proc and the sampler's tracefs instance"
	mountpoint -q "$TRACING" || mount -t tracefs nodev "$TRACING" 2>/dev/null ||
		skip "needs tracefs at $TRACING"
	T=$BATS_TEST_TMPDIR
	CPU=$(($(getconf _NPROCESSORS_ONLN) - 1))
}

# verdict ITEM: its verdict for $CPU on this machine
verdict() {
	"$RTLA" features -c "$CPU" --raw -n -o ITEM,VERDICT | awk -v i="$1" '$1 == i { print $2 }'
}

# json FILE PYTHON-EXPR: assert the expression on the record d
json() {
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert $2, d['rt_config']" "$1"
}

@test "rtconfig: the capture of this machine reads as the machine, item for item" {
	"$RTLA" capture "$T/tree" >/dev/null 2>&1
	"$RTLA" features -c "$CPU" >"$T/live"
	"$RTLA" --sysroot "$T/tree" features -c "$CPU" >"$T/captured"
	cat "$T/live"
	diff -u "$T/live" "$T/captured"
	[ "$(wc -l <"$T/live")" -eq 13 ]
}

@test "rtconfig: --require isolated refuses a run on a CPU that is not: exit 2, why, no record" {
	[ "$(verdict isolated)" = bad ] || skip "CPU $CPU is isolated here"
	run --separate-stderr "$RTLA" osnoise top --backend sampler -c "$CPU" -d 1s -q \
		--require isolated --json-file "$T/r.json"
	echo "status $status; stderr: $stderr"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	grep -qx "rtla osnoise top: --require isolated does not hold on CPUs $CPU (bad): isolated CPUs: none" <<<"$stderr"
	[ ! -e "$T/r.json" ]
}

@test "rtconfig: --on-misconfig record: the run, then the verdict misconfigured with its reason, exit 2" {
	[ "$(verdict isolated)" = bad ] || skip "CPU $CPU is isolated here"
	run --separate-stderr "$RTLA" osnoise top --backend sampler -c "$CPU" -d 1s -q \
		--require isolated --on-misconfig record --json-file "$T/r.json" \
		--junit "$T/j.xml" --prometheus "$T/p.prom"
	echo "status $status; stderr: $stderr"
	[ "$status" -eq 2 ]
	grep -Eq "^ +$CPU #" <<<"$output"
	grep -q "warning: --require isolated does not hold on CPUs $CPU" <<<"$stderr"
	json "$T/r.json" 'd["verdict"] == "misconfigured"'
	json "$T/r.json" 'd["rt_config"]["unmet"] == [{"require": "isolated", "verdict": "bad", "reason": "isolated CPUs: none"}]'
	json "$T/r.json" 'd["rt_config"]["required"] == ["isolated"] and d["rt_config"]["cpus"] == "'"$CPU"'"'
	xmllint --noout --schema "$XSD" "$T/j.xml"
	grep -q 'name="require isolated" time="0">' "$T/j.xml"
	grep -q 'message="misconfigured: isolated is bad">isolated CPUs: none<' "$T/j.xml"
	promtool check metrics <"$T/p.prom"
	grep -q '^rtla_rt_config_requirements_met{.*} 0$' "$T/p.prom"
	grep -q '^rtla_rt_config_ok{.*item="isolated",require="isolated"} 0$' "$T/p.prom"
}

@test "rtconfig: --require of a word that holds here passes, the block in the record" {
	word=$("$RTLA" features -c "$CPU" --raw -n -o REQUIRE,VERDICT | awk '$2 == "ok" { print $1; exit }')
	[ -n "$word" ] || skip "no item is ok on CPU $CPU here"
	echo "word: $word"
	run --separate-stderr "$RTLA" timerlat top --backend sampler -c "$CPU" -d 1s -q \
		--require "$word" --json-file "$T/r.json"
	echo "status $status; stderr: $stderr"
	[ "$status" -eq 0 ]
	json "$T/r.json" 'd["verdict"] == "passed" and d["rt_config"]["unmet"] == []'
	json "$T/r.json" 'len(d["rt_config"]["items"]) == 12'
}
