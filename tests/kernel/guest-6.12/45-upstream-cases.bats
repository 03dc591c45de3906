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

# hist_shape BUCKET ENTRIES [ADJACENT]: out.txt holds upstream's histogram for
# that bucket size and number of entries: an Index line naming the CPUs, at
# least one row, rows in increasing index order, each index a multiple of
# BUCKET below BUCKET * ENTRIES (so at most ENTRIES rows) with one count per
# CPU, not all zero; then the over row and the summary agreeing with the rows:
# count = the rows' sum + over, min the first row with a count, max the last
# one (or, with any over, at least BUCKET * ENTRIES), avg within min..max.
# With ADJACENT, two rows BUCKET apart somewhere (a bucket wider than asked
# for never gives that, and a second of noise on this guest always does).
hist_shape() {
	awk -v bs="$1" -v entries="$2" -v adjacent="${3:-}" '
		function fail(why) {
			print "hist_shape: " why ": " $0
			bad = 1
			exit 1
		}
		/^Index/ && !state {
			ncol = NF - 1
			if (ncol < 1) fail("no CPU column")
			state = 1
			next
		}
		state == 1 && /^[0-9]/ {
			if (NF != ncol + 1) fail("not one count per CPU")
			if ($1 % bs) fail("an index not a multiple of " bs)
			if ($1 >= bs * entries) fail("an index past entry " entries)
			if (rows && $1 <= prev) fail("an index not above the one before")
			if (rows && $1 == prev + bs) adj++
			prev = $1
			rows++
			sum = 0
			for (i = 2; i <= NF; i++) {
				sum += $i
				in_range[i] += $i
				if ($i && !(i in first)) first[i] = $1
				if ($i) last[i] = $1
			}
			if (!sum) fail("a row without a count")
			next
		}
		state == 1 && /^over:/ {
			if (NF != ncol + 1) fail("not one over count per CPU")
			for (i = 2; i <= NF; i++) over[i] = $i
			state = 2
			next
		}
		state == 1 { fail("not a row") }
		state == 2 && /^count:/ {
			for (i = 2; i <= NF; i++)
				if ($i != in_range[i] + over[i]) fail("count is not the rows + over")
			next
		}
		state == 2 && /^min:/ {
			for (i = 2; i <= NF; i++) {
				lo[i] = $i
				if ((i in first) ? $i != first[i] : $i < bs * entries)
					fail("min is not the first row with a count")
			}
			next
		}
		state == 2 && /^avg:/ {
			for (i = 2; i <= NF; i++) avg[i] = $i
			next
		}
		state == 2 && /^max:/ {
			for (i = 2; i <= NF; i++) {
				if (over[i] ? $i < bs * entries : $i != last[i])
					fail("max is not the last row with a count")
				if (avg[i] < lo[i] || avg[i] > $i) fail("avg outside min..max")
			}
			state = 3
			next
		}
		END {
			if (bad) exit 1
			if (!rows) { print "hist_shape: no row with a count"; exit 1 }
			if (state != 3) { print "hist_shape: no over, count, min, avg and max rows"; exit 1 }
			if (adjacent && !adj) { print "hist_shape: no two rows " bs " apart"; exit 1 }
			print "hist_shape: " rows " rows, " ncol " CPUs"
		}
	' out.txt
}

@test "hist options: -b 1, -E 10, -E 1 refused, --no-header, --with-zeros, --no-index, --no-summary" {
	expect 0 "" -- osnoise hist -b 1 -d 1s
	# bucket size 1: indexes one apart, below the default 256 entries
	hist_shape 1 256 adjacent
	expect 0 "" -- osnoise hist -E 10 -d 1s
	# 10 entries: at most 10 rows, indexes 0 to 9, then the over row
	hist_shape 1 10
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
