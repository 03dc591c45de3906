#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The linter of the tests (bats-lint): it finds every trap of traps.sample and
# nothing else, and the project's own test files have none.

bats_require_minimum_version 1.5.0

LINT=$BATS_TEST_DIRNAME/bats-lint
SAMPLE=$BATS_TEST_DIRNAME/traps.sample

@test "bats-lint reports each trap of the sample, and no allowed idiom" {
	want=$(grep -nE '# want: (and-list|negation)$' "$SAMPLE" | sed -E 's/^([0-9]+):.*# want: /\1:/')
	[ -n "$want" ]
	run -1 "$LINT" "$SAMPLE"
	got=$(sed -E 's/^[^:]*:([0-9]+): ([a-z-]+):.*/\1:\2/' <<<"$output")
	diff <(echo "$want") <(echo "$got")
}

@test "bats-lint --tap: one test a file, a finding as a comment under it" {
	printf '@test "t" {\n\ttrue\n}\n' >"$BATS_TEST_TMPDIR/good.bats"
	run -1 "$LINT" --tap "$BATS_TEST_TMPDIR/good.bats" "$SAMPLE"
	[ "${lines[0]}" = "ok 1 $BATS_TEST_TMPDIR/good.bats" ]
	[ "${lines[1]}" = "not ok 2 $SAMPLE" ]
	[[ ${lines[2]} == "# $SAMPLE:6: and-list: "* ]]
	[ "${lines[-1]}" = "1..2" ]
}

@test "bats-lint: a file it cannot read as shell is a finding, not a pass" {
	printf '@test "t" {\n\tif true; then\n\t\ttrue\n}\n' >"$BATS_TEST_TMPDIR/broken.bats"
	run -1 "$LINT" "$BATS_TEST_TMPDIR/broken.bats"
	[[ $output == "$BATS_TEST_TMPDIR/broken.bats: cannot parse: "* ]]
}

@test "every .bats and .bash file of tests/ is free of the traps" {
	run "$LINT" "$BATS_TEST_DIRNAME/.."
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}
