#!/usr/bin/env bats
# The gate's options refused before anything is measured, and rtla compare
# on records kept in tests/fixtures/gates/ (no root needed).

load ../lib/helper
bats_require_minimum_version 1.5.0

F=$BATS_TEST_DIRNAME/../fixtures/gates

@test "--fail-if: a malformed or unknown criterion is one line and exit 1, before measuring" {
	while IFS='|' read -r cmd expr want; do
		# shellcheck disable=SC2086
		run --separate-stderr "$RTLA" $cmd --backend sampler -d 2s --fail-if "$expr"
		echo "$cmd --fail-if '$expr' -> $status: '$stderr' (want '$want')"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "$stderr" = "$want" ]
	done <<'EOF_CASES'
hwnoise|max_single>20|rtla hwnoise: Invalid --fail-if: 'max_single>20': unknown metric 'max_single' (max_single_us, max_noise_us, noise_us, cpu_available_pct, p50_us..p9999_us, *_count; timerlat: irq_max_us, thread_avg_us, user_min_us, p99_irq_us, ...; hwlat: max_latency_us, exceeding_count, ...)
hwnoise|max_single_us=20|rtla hwnoise: Invalid --fail-if: 'max_single_us=20': expected an operator (>, >=, <, <=, ==, !=) after max_single_us
hwnoise|max_single_us>20ks|rtla hwnoise: Invalid --fail-if: 'max_single_us>20ks': max_single_us takes a time in ns, us, ms or s, not 'ks'
hwnoise|max_single_us>20us x|rtla hwnoise: Invalid --fail-if: 'max_single_us>20us x': unexpected 'x' after the value
hwnoise|hw_count>0.5|rtla hwnoise: Invalid --fail-if: 'hw_count>0.5': hw_count takes a whole number
hwnoise|irq_count>0|rtla hwnoise: Invalid --fail-if: 'irq_count > 0': hwnoise runs with interrupts off and counts no irq_count
osnoise top|p99_us>5|rtla osnoise top: Invalid --fail-if: 'p99_us > 5': p99_us needs every single noise: use osnoise hist or hwnoise hist
osnoise hist|cpu_available_pct<101|rtla osnoise hist: Invalid --fail-if: 'cpu_available_pct<101': a percentage is at most 100
hwnoise hist|p99_us>|rtla hwnoise hist: Invalid --fail-if: 'p99_us>': expected a number after p99_us>
hwnoise|smi_count>0.5|rtla hwnoise: Invalid --fail-if: 'smi_count>0.5': smi_count takes a whole number
timerlat hist|smi_count>1ms|rtla timerlat hist: Invalid --fail-if: 'smi_count>1ms': smi_count takes a whole number, not 'ms'
EOF_CASES
}

@test "--fail-if smi_count where no SMI count can be read: exit 1 before measuring, with the reason" {
	smi_reason
	for cmd in hwnoise "osnoise hist" "timerlat top"; do
		echo "$cmd"
		# shellcheck disable=SC2086
		run --separate-stderr "$RTLA" $cmd --backend sampler --unattributed -c 0 -d 3s \
			--fail-if 'smi_count>0' --json-file "$BATS_TEST_TMPDIR/r.json"
		echo "-> $status: '$stderr'"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "$(tail -1 <<<"$stderr")" = "rtla $cmd: --fail-if smi_count cannot be judged: $SMI_WHY" ]
		[ ! -s "$BATS_TEST_TMPDIR/r.json" ]
	done
}

@test "--fail-if with -T at or above the runtime is refused: no noise could reach the threshold" {
	for t in 750000 99999999999999; do
		echo "hwnoise -T $t"
		run --separate-stderr "$RTLA" hwnoise --backend sampler -d 2s -T "$t" --fail-if 'max_single_us>20'
		echo "-> $status: '$stderr'"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "$stderr" = "rtla hwnoise: Invalid -T for --fail-if: threshold $t us >= runtime 750000 us: no noise can reach it, every figure would be 0" ]
	done
}

@test "rtla compare: the per-CPU table of two records, exit 2 on a regression" {
	run --separate-stderr "$RTLA" compare "$F/base.json" "$F/new.json"
	[ "$status" -eq 2 ]
	diff -u "$F/compare.txt" <(printf '%s\n' "$output")
	diff -u "$F/compare.err" <(printf '%s\n' "$stderr")
}

@test "rtla compare -J: the verdict and every comparison" {
	run --separate-stderr "$RTLA" compare -J "$F/base.json" "$F/new.json"
	[ "$status" -eq 2 ]
	python3 -c 'import json, sys; d = json.loads(sys.stdin.read())
assert d["schema"] == {"name": "rtla-compare", "version": 1} and d["verdict"] == "failed"
assert d["regressions"] == 1 and d["compared"] == 12, d
r = [c for c in d["comparisons"] if c["verdict"] == "regression"]
assert r == [{"cpu": 0, "metric": "max_single_us", "base": 80, "new": 1944, "delta": 1864,
              "change_pct": 2330.0, "limit": "+10%", "verdict": "regression"}], r' <<<"$output"
}

@test "rtla compare: --max-increase and --tolerance move the limits" {
	run "$RTLA" compare --max-increase max_single_us=2000 "$F/base.json" "$F/new.json"
	[ "$status" -eq 0 ]
	grep -Eq '^ *0 max_single_us +80 +1944 +1864 +2330.0 +\+2000 ok$' <<<"$output"
	# counts are judged once named
	run "$RTLA" compare --max-increase max_single_us=2000 --max-increase hw_count=100 \
		"$F/base.json" "$F/new.json"
	[ "$status" -eq 2 ]
	grep -Eq '^ *1 hw_count +3490 +3876 +386 +11.1 +\+100 regression$' <<<"$output"
	run "$RTLA" compare --tolerance 3000 "$F/base.json" "$F/new.json"
	[ "$status" -eq 0 ]
	run "$RTLA" compare "$F/new.json" "$F/new.json"
	[ "$status" -eq 0 ]
}

@test "rtla compare: bad input is one line and exit 1" {
	while IFS='|' read -r args want; do
		eval "set -- $args"
		run --separate-stderr "$RTLA" compare "$@"
		echo "compare $args -> $status: '$stderr' (want '$want')"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "$stderr" = "$want" ]
	done <<EOF_CASES
$F/base.json|rtla compare: missing argument: expected BASE.json NEW.json
$F/base.json $F/base.json $F/base.json|rtla compare: unexpected argument: $F/base.json
$F/base.json /nonexistent.json|rtla compare: /nonexistent.json: No such file or directory
$F/junit.xsd $F/base.json|rtla compare: $F/junit.xsd: line 1: unexpected '<'
$F/README $F/base.json|rtla compare: $F/README: line 1: unexpected 'R'
--tolerance -5 $F/base.json $F/base.json|rtla compare: invalid --tolerance: '-5' is not a number >= 0
--tolerance 5x $F/base.json $F/base.json|rtla compare: invalid --tolerance: '5x' is not a number >= 0
--max-increase p99 $F/base.json $F/base.json|rtla compare: invalid --max-increase: 'p99': expected METRIC=VALUE
--max-increase p99=1 $F/base.json $F/base.json|rtla compare: invalid --max-increase: 'p99=1': unknown metric 'p99'
EOF_CASES
	echo '{"schema": {"name": "rtla-capdump"}, "processes": []}' >"$BATS_TEST_TMPDIR/cap.json"
	run --separate-stderr "$RTLA" compare "$BATS_TEST_TMPDIR/cap.json" "$F/base.json"
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla compare: $BATS_TEST_TMPDIR/cap.json: not a record of a noise tool (no \"cpus\"; write one with -J or --json-file)" ]
}

@test "rtla compare: a record of another command is refused, one line and exit 1" {
	"$RTLA" dhry -i 1000 -J >"$BATS_TEST_TMPDIR/dhry.json"
	for order in "$F/base.json $BATS_TEST_TMPDIR/dhry.json" "$BATS_TEST_TMPDIR/dhry.json $F/base.json"; do
		echo "compare $order"
		# shellcheck disable=SC2086
		run --separate-stderr "$RTLA" compare $order
		echo "-> $status: '$stderr'"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "$stderr" = "rtla compare: $BATS_TEST_TMPDIR/dhry.json: not a record of a noise tool (its schema is 'rtla-dhry'; compare takes records of osnoise top, osnoise hist, hwnoise, hwnoise hist, timerlat top, timerlat hist, hwlat top and hwlat hist)" ]
	done
}

@test "rtla compare: a figure absent from both records is not compared and not a regression" {
	for rec in base new; do
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cpus"]:
    c.pop("hw_count")
    c["nmi_count"] = None
json.dump(d, open(sys.argv[2], "w"))' "$F/$rec.json" "$BATS_TEST_TMPDIR/$rec.json"
	done
	run --separate-stderr "$RTLA" compare --max-increase max_single_us=2000 \
		"$BATS_TEST_TMPDIR/base.json" "$BATS_TEST_TMPDIR/new.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	run ! grep -Eq 'hw_count|nmi_count' <<<"$output"
}

@test "--junit and --prometheus: a destination that cannot be written is refused before measuring" {
	d=$BATS_TEST_TMPDIR/out
	mkdir "$d"
	while IFS='|' read -r path want; do
		for opt in --junit --prometheus; do
			echo "hwnoise $opt '$path' (want '$want')"
			run --separate-stderr timeout 20 "$RTLA" hwnoise -c 0 -d 10m -q "$opt" "$path"
			echo "-> $status: '$stderr'"
			if [ "$status" -eq 124 ]; then
				echo "still measuring after 20 s of -d 10m: $opt was not checked first"
				false
			fi
			[ "$status" -eq 1 ]
			[ -z "$output" ]
			[ "$stderr" = "rtla hwnoise: $opt: $want" ]
		done
	done <<-EOF_CASES
		$d/no/such/x.xml|$d/no/such/x.xml: No such file or directory
		$d|$d: Is a directory
		/proc/rtla-x|/proc/rtla-x: No such file or directory
		-|'-': standard output holds the table: name a file
		-x|file name starts with '-': '-x' (for a file of that name write ./-x)
	EOF_CASES
	run ls -A "$d"
	echo "left in $d: $output"
	[ -z "$output" ]
}

# a timerlat hist record as -J writes it, with CPU 0's figures from the arguments
timerlat_record() {
	python3 - "$@" <<'PY'
import json, sys
thread_max_ns, p99, count, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ctx = lambda mx, p: {"count": count, "seq_first": 1, "seq_last": count, "min_ns": 3000,
                     "avg_ns": 9000.0, "max_ns": mx, "p50_us": 8, "p90_us": 9, "p99_us": p,
                     "p999_us": p, "p9999_us": p}
rec = {"schema": {"name": "rtla-timerlat-hist", "version": 1}, "tool": "rtla", "version": "0",
       "command": "timerlat hist", "host": "h", "kernel": "6.12", "started": "2026-01-01T00:00:00Z",
       "options": {"cpus": "0", "period_us": 1000},
       "cpus": [{"cpu": 0, "irq": ctx(20000, 15), "thread": ctx(thread_max_ns, p99)}]}
json.dump(rec, open(path, "w"))
PY
}

@test "rtla compare: timerlat records, per context, named as their --fail-if metrics" {
	timerlat_record 40000 30 1000 "$BATS_TEST_TMPDIR/base.json"
	timerlat_record 90000 31 1200 "$BATS_TEST_TMPDIR/new.json"
	run --separate-stderr "$RTLA" compare "$BATS_TEST_TMPDIR/base.json" "$BATS_TEST_TMPDIR/new.json"
	echo "$output"
	echo "$stderr"
	[ "$status" -eq 2 ]
	# 40 us to 90 us: a regression; the p99 moved by 1 us, the resolution: ok
	grep -Eq '^ +0 thread_max_us +40 +90 +50 +125\.0 +\+10% regression$' <<<"$output"
	grep -Eq '^ +0 p99_thread_us +30 +31 +1 +3\.3 +\+10% ok$' <<<"$output"
	grep -Eq '^ +0 irq_max_us +20 +20 +0 +0\.0 +\+10% ok$' <<<"$output"
	grep -Eq '^ +0 thread_sample_count +1000 +1200 +200 +20\.0 +- +worse$' <<<"$output"
	[ "$stderr" = "rtla compare: FAILED: 1 regression beyond the limits" ]
	run --separate-stderr "$RTLA" compare --max-increase thread_max_us=60 \
		"$BATS_TEST_TMPDIR/base.json" "$BATS_TEST_TMPDIR/new.json"
	[ "$status" -eq 0 ]
}
