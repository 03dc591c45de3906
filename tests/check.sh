#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every test tier against a built tree and print one closing line,
# "check: N passed, N failed, N skipped". Each tier speaks TAP; a tier that
# dies without reporting its tests counts as one failure.
#
#   tests/check.sh --build DIR [--tier unit|cli|fixtures|host|vm]...
#   RTLA_SKIP_VM=1 skips the VM tier (quick local runs; CI always runs it).
set -u
cd "$(dirname "$0")/.."

build=build
tiers=()
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--tier) tiers+=("$2"); shift 2 ;;
	*) echo "usage: $0 --build DIR [--tier NAME]..." >&2; exit 1 ;;
	esac
done
[ ${#tiers[@]} -gt 0 ] || tiers=(unit cli fixtures host vm)

RTLA=$(cd "$build" && pwd)/rtla
export RTLA
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

passed=0 failed=0 skipped=0

# count TAP results of one tier from its log; $2 is the tier's exit status
count() {
	local name=$1 rc=$2 file=$log/$1.tap p f s
	p=$(grep -cE '^ok ' "$file" | head -1)
	s=$(grep -cE '^ok .*# (skip|SKIP)' "$file" | head -1)
	f=$(grep -cE '^not ok ' "$file" | head -1)
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - tier $name exited with status $rc without a failing test"
		f=1
	fi
	echo "[$name] $p passed, $f failed, $s skipped"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

run_tier() {
	local name=$1 rc
	shift
	echo "# tier $name"
	"$@" 2>&1 | tee "$log/$name.tap"
	rc=${PIPESTATUS[0]}
	count "$name" "$rc"
}

unit_tier() {
	local rc=0 t
	for t in "$build"/tests/unit/test_*; do
		[ -x "$t" ] || continue
		echo "# $t"
		"$t" | sed 's/^1\.\.[0-9]*$//' || rc=1
	done
	return $rc
}

bats_tier() {
	local dir=$1
	compgen -G "$dir/*.bats" >/dev/null || { echo "# no tests in $dir"; return 0; }
	bats --tap "$dir"
}

for tier in "${tiers[@]}"; do
	case "$tier" in
	unit) run_tier unit unit_tier ;;
	cli) run_tier cli bats_tier tests/cli ;;
	fixtures) run_tier fixtures bats_tier tests/fixtures ;;
	host) run_tier host bats_tier tests/host ;;
	vm)
		if [ -n "${RTLA_SKIP_VM:-}" ]; then
			echo "# tier vm skipped: RTLA_SKIP_VM is set"
		elif [ -x tests/kernel/vm-tier.sh ]; then
			run_tier vm tests/kernel/vm-tier.sh --rtla "$RTLA"
		fi
		;;
	*) echo "unknown tier $tier" >&2; exit 1 ;;
	esac
done

echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
