#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run libFuzzer targets built by "make fuzz-build", each for TIME seconds,
# and report in TAP: one line per target with its executions and coverage.
#
#   tests/fuzz/run.sh --build DIR [--time SECONDS | --runs N] fuzz_NAME...
#
# A target starts from its checked-in seeds (tests/fuzz/corpus/NAME/) and the
# corpus it grew in earlier runs (DIR/corpus/NAME/, the only one written to),
# with tests/fuzz/NAME.dict when there is one. --runs N is the smoke test of
# "make check": N inputs from the seeds alone with a fixed random seed, so
# the same tree always tries the same inputs, however fast the machine. A crash, a sanitizer report, a
# leak or a hang fails the run; the input is kept in DIR/crashes/fuzz_NAME/
# and the line to replay it is printed. Exit status: 0 when no target failed.
set -u
cd "$(dirname "$0")/../.."

build="build-fuzz"
time=60
runs=
targets=()
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--time) time=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	-*) echo "usage: $0 --build DIR [--time SECONDS | --runs N] fuzz_NAME..." >&2; exit 1 ;;
	*) targets+=("$1"); shift ;;
	esac
done
[ ${#targets[@]} -gt 0 ] || { echo "$0: no targets" >&2; exit 1; }

shopt -s nullglob
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
mkdir -p "$build/logs"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "1..${#targets[@]}"
n=0 failed=0
for t in "${targets[@]}"; do
	n=$((n + 1))
	name=${t#fuzz_}
	seeds=tests/fuzz/corpus/$name
	corpus=$build/corpus/$name
	crashes=$build/crashes/$t
	log=$build/logs/$t.log
	args=(-timeout=10 -print_final_stats=1 -artifact_prefix="$crashes/")
	if [ -n "$runs" ]; then
		corpus=$scratch/$name
		args+=(-runs="$runs" -seed=1)
		what="seed 1"
	else
		args+=(-max_total_time="$time")
		what="${time}s"
	fi
	[ -f "tests/fuzz/$name.dict" ] && args+=(-dict="tests/fuzz/$name.dict")
	dirs=("$corpus")
	[ -d "$seeds" ] && dirs+=("$seeds")
	mkdir -p "$corpus" "$crashes"
	old=" $(echo "$crashes"/*) "

	"$build/$t" "${args[@]}" "${dirs[@]}" >"$log" 2>&1
	rc=$?
	new=()
	for f in "$crashes"/*; do
		[[ $old == *" $f "* ]] || new+=("$f")
	done

	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1)
	summary="$t: ${execs:-?} runs ($what), ${cov:-no coverage reported}"
	if [ "$rc" -eq 0 ] && [ ${#new[@]} -eq 0 ]; then
		echo "ok $n - $summary"
		continue
	fi
	failed=$((failed + 1))
	echo "not ok $n - $summary (exit status $rc)"
	grep -E 'ERROR|SUMMARY|runtime error|contract broken|^ +#[0-9]+ .* in ' "$log" |
		head -30 | sed 's/^/# /'
	for f in "${new[@]}"; do
		echo "# input: $f ($(stat -c %s "$f") bytes)"
		echo "# replay: $build/$t $f"
	done
	echo "# log: $log"
done
echo "fuzz: $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
