#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every test tier against a built tree and print one closing line,
# "check: N passed, N failed, N skipped". Each tier speaks TAP; a tier that
# dies without reporting its tests counts as one failure.
#
#   tests/check.sh --build DIR [--asan DIR] [--fuzz DIR] [--arm64 DIR] [--tier NAME]...
#   NAME: lint, unit, unit-asan, cli, cli-asan, fuzz, fixtures, host, package, vm or mutants
#   RTLA_SKIP_VM=1 skips the VM tier (quick local runs; CI always runs it).
#
# --asan DIR names a second tree built with ASan+UBSan ("make asan"): each
# unit or cli tier is then run again on it as unit-asan or cli-asan. --fuzz
# DIR names the libFuzzer targets ("make fuzz-build"): tier fuzz gives each a
# short run of a fixed number of inputs. --tier takes these names too.
# RTLA_SKIP_SAN=1 skips the three sanitizer tiers. --arm64 DIR names the
# arm64 bundle ("make bundle-arm64"): the vm tier then boots the arm64 guest too.
set -u
cd "$(dirname "$0")/.."

build=build
asan=
fuzz=
arm64=
tiers=()
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--asan) asan=$2; shift 2 ;;
	--fuzz) fuzz=$2; shift 2 ;;
	--arm64) arm64=$2; shift 2 ;;
	--tier) tiers+=("$2"); shift 2 ;;
	*) echo "usage: $0 --build DIR [--asan DIR] [--fuzz DIR] [--arm64 DIR] [--tier NAME]..." >&2; exit 1 ;;
	esac
done
if [ ${#tiers[@]} -eq 0 ]; then
	# lint checks the tests themselves (tests/lint/bats-lint) before they run;
	# unit and cli are followed by their twins on the ASan tree, then the fuzz smoke
	tiers=(lint unit ${asan:+unit-asan} cli ${asan:+cli-asan} ${fuzz:+fuzz} fixtures host package vm mutants)
fi

RTLA=$(cd "$build" && pwd)/rtla
export RTLA
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

passed=0 failed=0 skipped=0

# count TAP results of one tier from its log; $2 is the tier's exit status,
# $3 the seconds it took
count() {
	local name=$1 rc=$2 secs=$3 file=$log/$1.tap p f s
	p=$(grep -cE '^ok ' "$file" | head -1)
	s=$(grep -cE '^ok .*# (skip|SKIP)' "$file" | head -1)
	f=$(grep -cE '^not ok ' "$file" | head -1)
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - tier $name exited with status $rc without a failing test"
		f=1
	fi
	echo "[$name] $p passed, $f failed, $s skipped, ${secs} s"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

run_tier() {
	local name=$1 rc start=$SECONDS
	shift
	echo "# tier $name"
	"$@" 2>&1 | tee "$log/$name.tap"
	rc=${PIPESTATUS[0]}
	count "$name" "$rc" $((SECONDS - start))
}

# the status of a test binary counts too: a sanitizer may fail it after its last "ok"
unit_tier() {
	local dir=$1 rc=0 t
	for t in "$dir"/tests/unit/test_*; do
		[ -x "$t" ] || continue
		echo "# $t"
		"$t" | sed 's/^1\.\.[0-9]*$//'
		[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
	done
	return $rc
}

bats_tier() {
	local dir=$1
	compgen -G "$dir/*.bats" >/dev/null || { echo "# no tests in $dir"; return 0; }
	bats --tap "$dir"
}

# The cli tier on the ASan build leaves out the files whose header has a line
# "# cli-asan: skip, REASON": their subject is not rtla's memory (the pages,
# bash-completion's script), and the rtla code they reach has tests of its
# own on that build.
asan_cli_tier() {
	local f files=()
	for f in tests/cli/*.bats; do
		if grep -q '^# cli-asan: skip' "$f"; then
			echo "# ${f##*/}: $(sed -n 's/^# cli-asan: skip, //p' "$f")"
		else
			files+=("$f")
		fi
	done
	bats --tap "${files[@]}"
}

# Run a tier on the ASan tree. A report goes to a file, not to stderr, so that
# each one fails the tier even where a test does not look at its exit status;
# leaks that belong to libraries are suppressed by tests/sanitize/lsan.supp.
san_tier() {
	local name=$1 reports=$log/$1.reports rc f
	shift
	mkdir -p "$reports"
	(
		RTLA=$(cd "$asan" && pwd)/rtla
		# exit status 86: no rtla exit status, so no test takes a report for success;
		# whole stacks at each malloc, so that a suppression can name a function
		ASAN_OPTIONS="log_path=$reports/asan:exitcode=86:detect_leaks=1:fast_unwind_on_malloc=0"
		ASAN_OPTIONS+=":strict_string_checks=1:detect_stack_use_after_return=1"
		export ASAN_OPTIONS
		export UBSAN_OPTIONS="log_path=$reports/ubsan:exitcode=86:halt_on_error=1:print_stacktrace=1"
		export LSAN_OPTIONS="suppressions=$PWD/tests/sanitize/lsan.supp:print_suppressions=0"
		"$@"
	)
	rc=$?
	for f in "$reports"/*; do
		[ -e "$f" ] || continue
		echo "not ok - sanitizer report ${f##*/}"
		sed 's/^/# /' "$f"
		rc=1
	done
	return $rc
}

# san_skip TIER DIR WANTED: 0 (skip) when RTLA_SKIP_SAN is set; dies when DIR lacks WANTED
san_skip() {
	if [ -n "${RTLA_SKIP_SAN:-}" ]; then
		echo "# tier $1 skipped: RTLA_SKIP_SAN is set"
		return 0
	fi
	if [ -z "$2" ] || [ ! -x "$2/$3" ]; then
		echo "tier $1 needs ${2:-a tree} with $3 (make asan, make fuzz-build)" >&2
		exit 1
	fi
	return 1
}

# the smoke test of the fuzz targets: 50000 inputs each, a few seconds in all
fuzz_tier() {
	local t targets=()
	for t in "$fuzz"/fuzz_*; do
		[ -x "$t" ] && targets+=("${t##*/}")
	done
	tests/fuzz/run.sh --build "$fuzz" --runs 50000 "${targets[@]}"
}

for tier in "${tiers[@]}"; do
	case "$tier" in
	lint) run_tier lint bats_tier tests/lint ;;
	unit) run_tier unit unit_tier "$build" ;;
	unit-asan) san_skip "$tier" "$asan" rtla || run_tier "$tier" san_tier "$tier" unit_tier "$asan" ;;
	cli-asan) san_skip "$tier" "$asan" rtla || run_tier "$tier" san_tier "$tier" asan_cli_tier ;;
	fuzz) san_skip "$tier" "$fuzz" fuzz_parse || run_tier fuzz fuzz_tier ;;
	cli) run_tier cli bats_tier tests/cli ;;
	fixtures) run_tier fixtures bats_tier tests/fixtures ;;
	host) run_tier host bats_tier tests/host ;;
	# what "make packages" made beside $build: the board bundles, the .deb, the image
	package) run_tier package bats_tier tests/package ;;
	vm)
		if [ -n "${RTLA_SKIP_VM:-}" ]; then
			echo "# tier vm skipped: RTLA_SKIP_VM is set"
		elif [ -x tests/kernel/vm-tier.sh ]; then
			run_tier vm tests/kernel/vm-tier.sh --rtla "$RTLA" ${arm64:+--arm64 "$arm64"}
		fi
		;;
	mutants) run_tier mutants tests/mutants/run.sh --build "$build" ;;
	*) echo "unknown tier $tier" >&2; exit 1 ;;
	esac
done

echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
