# The cases of upstream rtla's own osnoise test list (tools/tracing/rtla/tests,
# 7.x era), run against ours on 6.12: the same command lines, exit statuses and
# output patterns. Where ours differs on purpose the case says so and checks
# ours: help exits 0 (upstream 7.x: 129), and an error line carries the
# command's prefix ("rtla osnoise: ..."), so upstream's ^...$ becomes ...$.
# "TOOL" cases run as "top -q" and as "hist", as upstream's list does.

load /vm/lib/noise
load /vm/lib/upstream

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

@test "help pages: osnoise --help names the version, top and hist --help the tool" {
	expect 0 "osnoise version" -- osnoise --help
	expect 0 "rtla osnoise" -- osnoise top --help
	expect 0 "rtla osnoise" -- osnoise hist --help
}

@test "-s 30 -T 1 stops with 'osnoise hit stop tracing'; -t saves osnoise_trace.txt" {
	top_q_hist 2 "osnoise hit stop tracing" "" -s 30 -T 1
	top_q_hist 2 "Saving trace to osnoise_trace.txt" "" -s 30 -T 1 -t
}

@test "hist options: -b 1, -E 10, -E 1 refused, --no-header, --with-zeros, --no-index, --no-summary" {
	expect 0 "" -- osnoise hist -b 1 -d 1s
	expect 0 "" -- osnoise hist -E 10 -d 1s
	expect 1 "Entries must be > 10 and < [0-9]+$" -- osnoise hist -E 1 -d 1s
	expect 0 "" "RTLA osnoise histogram" -- osnoise hist --no-header -d 1s
	expect 0 '^2000000\s+0\s+' -- osnoise hist --with-zeros -b 100000 -E 21 -d 1s
	expect 0 "" "^count:" -- osnoise hist --no-index --with-zeros -d 1s
	expect 0 "" "^count:" -- osnoise hist --no-summary -d 1s
}

@test "the default period is applied over an absurd one left in the kernel" {
	echo 600000000 >/sys/kernel/tracing/osnoise/period_us
	expect 2 "" -- osnoise hist -s 1
	[ "$(cat /sys/kernel/tracing/osnoise/period_us)" = 600000000 ]
}

@test "--on-end trace saves the trace at the end" {
	expect 0 "^  Saving trace to osnoise_trace.txt$" -- osnoise top -d 1s --on-end trace
	expect 0 "^  Saving trace to osnoise_trace.txt$" -- osnoise hist -d 1s --on-end trace
}
