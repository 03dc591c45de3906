#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The mutant tier: each promise of the suite (README, rtla(1)) is broken on
# purpose in a copy of the source, and the tests that carry that promise must
# then fail. A mutant that no test catches fails the tier and names itself, as
# does one whose change no longer applies to the source.
#
#   tests/mutants/run.sh --build DIR [NAME...]
#
# DIR is a built tree (make O=DIR): each mutant copies it with the source, so
# that only the mutated file and the link are redone. One TAP test a mutant.
#
# A mutant is a file NAME.mutant beside this script, "key: value" lines:
#   promise:  the promise it breaks, in words
#   find:     a line fragment that occurs exactly once in src/ (any file, so a
#             file may move without the mutant noticing)
#   replace:  what that fragment becomes
#   tier:     where its tests run: cli, fixtures, host (bats with RTLA set to
#             the mutant), unit (the unit test binary of that name, built from
#             the mutated tree), vm (tests/kernel/vm-tier.sh --only FILE; a file
#             of every kernel's tests, guest-all/, in the newest kernel's guest
#             alone: one guest catches a mutant)
#   tests:    the test file (for unit: the test's name, e.g. test_ledger)
#   filter:   a regex of the names of the tests to run (bats tiers, vm
#             included; not starting with '-': bats would read it as an option)
# A mutant is caught when at least one of those tests reports "not ok"; that
# the same tests pass on the real build is what the other tiers show.
# RTLA_SKIP_VM=1 skips the vm mutants.
set -u
cd "$(dirname "$0")/../.."
# VM_KERNELS, newest first
# shellcheck source=tests/kernel/lib.sh
. tests/kernel/lib.sh

build=
names=()
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	-*) echo "usage: $0 --build DIR [NAME...]" >&2; exit 1 ;;
	*) names+=("$1"); shift ;;
	esac
done
[ -n "$build" ] && [ -x "$build/rtla" ] || { echo "$0: --build DIR needs a built rtla in DIR" >&2; exit 1; }
build=$(cd "$build" && pwd)
if [ ${#names[@]} -eq 0 ]; then
	for f in tests/mutants/*.mutant; do
		n=${f##*/}
		names+=("${n%.mutant}")
	done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# field FILE KEY: the value of "KEY: value" in FILE
field() {
	sed -n "s/^$2: //p" "$1" | head -n1
}

# mutate TREE FIND REPLACE: change the one occurrence of FIND in TREE/src; the
# file changed on stdout, or a reason on stderr and status 1
mutate() {
	local tree=$1 find=$2 replace=$3 files n
	files=$(cd "$tree" && grep -rlF -- "$find" src)
	n=$(printf '%s' "$files" | grep -c .)
	if [ "$n" -ne 1 ]; then
		echo "its find: text is in $n files of src/, not in one: '$find'" >&2
		return 1
	fi
	n=$(grep -cF -- "$find" "$tree/$files")
	if [ "$n" -ne 1 ]; then
		echo "its find: text is on $n lines of $files, not on one: '$find'" >&2
		return 1
	fi
	FIND=$find REPLACE=$replace perl -0pi -e 's/\Q$ENV{FIND}\E/$ENV{REPLACE}/' "$tree/$files"
	echo "$files"
}

# build_mutant NAME: the mutated tree's rtla (and unit test) in $work/NAME
build_mutant() {
	local name=$1 tree=$work/$1 goal=build/rtla
	mkdir -p "$tree"
	cp -a Makefile VERSION src "$tree"/
	# the objects and the library, not the packages and bundles made beside them
	mkdir "$tree/build"
	tar -C "$build" -c --exclude=./deb --exclude=./bundle --exclude=./oci \
		--exclude='./rtla-static*' --exclude=./tests . | tar -C "$tree/build" -x
	mutate "$tree" "${find[$name]}" "${replace[$name]}" >"$work/$name.file" || return 1
	if [ "${tier[$name]}" = unit ]; then
		goal=build/tests/unit/${tests[$name]}
		mkdir -p "$tree/tests/unit"
		cp -a tests/unit/*.h "tests/unit/${tests[$name]}.c" "$tree/tests/unit/"
	fi
	if ! make -s -C "$tree" O=build "$goal" >"$work/$name.make" 2>&1; then
		echo "it does not build:" >&2
		sed 's/^/    /' "$work/$name.make" >&2
		return 1
	fi
}

# run_tests NAME: the mutant's tests' TAP on stdout
run_tests() {
	local name=$1 tree=$work/$1
	case "${tier[$name]}" in
	cli | fixtures | host)
		RTLA=$tree/build/rtla bats --tap -f "${filter[$name]:-.}" "${tests[$name]}" ;;
	unit)
		"$tree/build/tests/unit/${tests[$name]}" ;;
	vm)
		local args=(--rtla "$tree/build/rtla" --only "${tests[$name]}")
		if [[ ${tests[$name]} == */guest-all/* ]]; then args+=(--kernel "${VM_KERNELS[0]}"); fi
		if [ -n "${filter[$name]}" ]; then args+=(--filter "${filter[$name]}"); fi
		tests/kernel/vm-tier.sh "${args[@]}" ;;
	*)
		echo "not ok - unknown tier '${tier[$name]}'" ;;
	esac
}

# build_one N NAME: make the mutant, and run its tests at once when they need
# nothing but rtla (cli, fixtures, unit). Its result (TAP lines) in
# $work/NAME.result, or no result yet for a built host or vm mutant.
build_one() {
	local n=$1 name=$2
	if [ -z "${tier[$name]+set}" ]; then
		echo "not ok $n mutant $name: no file tests/mutants/$name.mutant" >"$work/$name.result"
	elif [ "${tier[$name]}" = vm ] && [ -n "${RTLA_SKIP_VM:-}" ]; then
		echo "ok $n mutant $name # skip RTLA_SKIP_VM is set" >"$work/$name.result"
	elif ! build_mutant "$name" 2>"$work/$name.why"; then
		{
			echo "not ok $n mutant $name (${promise[$name]}): cannot be made"
			sed 's/^/# /' "$work/$name.why"
		} >"$work/$name.result"
	else
		case "${tier[$name]}" in
		host | vm) ;;
		*) test_one "$n" "$name" ;;
		esac
	fi
}

# test_one N NAME: run a built mutant's tests; its result in $work/NAME.result
test_one() {
	local n=$1 name=$2 start=$SECONDS caught ran
	run_tests "$name" >"$work/$name.tap" 2>&1
	caught=$(grep -E '^not ok ' "$work/$name.tap" | sed -E 's/^not ok [0-9]+ (- )?//')
	ran=$(grep -cE '^(ok|not ok) ' "$work/$name.tap")
	if [ -n "$caught" ]; then
		echo "ok $n mutant $name (${promise[$name]}) in $(cat "$work/$name.file"): caught by ${tests[$name]}, $((SECONDS - start)) s"
		printf '%s\n' "$caught" | sed 's/^/#   failed: /'
	else
		echo "not ok $n mutant $name (${promise[$name]}) in $(cat "$work/$name.file"): survived $ran tests of ${tests[$name]}${filter[$name]:+ matching '${filter[$name]}'}"
		sed 's/^/# /' "$work/$name.tap" | tail -n 20
	fi >"$work/$name.result"
	rm -rf "${work:?}/$name"
	# what a mutant left on this machine (an instance of a killed run): the
	# next run of the real rtla reclaims it, as it would after any crash
	if [ "${tier[$name]}" = host ]; then
		"$build/rtla" hwnoise --backend sampler -c 0 -d 1s -q >/dev/null 2>&1 || true
	fi
}

# The mutants' fields, read once (a mutant without a file has no tier)
declare -A tier tests filter promise find replace
for name in "${names[@]}"; do
	mf=tests/mutants/$name.mutant
	[ -f "$mf" ] || continue
	tier[$name]=$(field "$mf" tier) tests[$name]=$(field "$mf" tests)
	filter[$name]=$(field "$mf" filter) promise[$name]=$(field "$mf" promise)
	find[$name]=$(field "$mf" find) replace[$name]=$(field "$mf" replace)
done

# in_parallel FUNC [TIER]: FUNC N NAME for each mutant (of TIER only, when
# given) that has no result yet, RTLA_MUTANT_JOBS of them at a time
in_parallel() {
	local func=$1 only=${2:-} n=0 name
	for name in "${names[@]}"; do
		n=$((n + 1))
		[ ! -e "$work/$name.result" ] || continue
		[ -z "$only" ] || [ "${tier[$name]:-}" = "$only" ] || continue
		while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do
			wait -n
		done
		"$func" "$n" "$name" &
	done
	wait
}

# Two at a time (this machine's cores): the builds and the tests that need
# nothing but rtla (cli, fixtures, unit), then the vm tests (each boots a
# guest of its own); last, one at a time and alone, the host tests, which
# another run beside them could disturb: a failure they did not cause would
# count the mutant as caught.
parallel=${RTLA_MUTANT_JOBS:-2}
in_parallel build_one
in_parallel test_one vm
n=0 bad=0
for name in "${names[@]}"; do
	n=$((n + 1))
	[ -e "$work/$name.result" ] || test_one "$n" "$name"
	cat "$work/$name.result"
	grep -q '^not ok ' "$work/$name.result" && bad=$((bad + 1))
done
echo "1..$n"
[ "$bad" -eq 0 ]
