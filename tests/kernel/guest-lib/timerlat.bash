# Helpers of the guest tests of timerlat top and hist (load /vm/lib/noise
# first, then /vm/lib/timerlat; noise's snapshot() and default_settings()
# cover the timerlat settings): upstream's table formats, the processes of
# the workload.
# shellcheck shell=bash

# the helpers that loop run without bats' per-command trap (untraced.bash)
. /vm/lib/untraced.bash

# unusual_settings() and stop conditions no run would choose, so that a run
# which "restores" them to 0 instead of to what it found is caught.
tl_unusual_settings() {
	unusual_settings
	echo 900000 >"$T/osnoise/stop_tracing_us"
	echo 800000 >"$T/osnoise/stop_tracing_total_us"
}

# tl_pids GLOB: the pids of the processes whose comm matches the glob
tl_pids() {
	local d c
	for d in /proc/[0-9]*; do
		# read, not $(cat): a fork per process took seconds in a loaded guest
		read -r c <"$d/comm" 2>/dev/null || continue
		# shellcheck disable=SC2053
		if [[ $c == $1 ]]; then echo "${d#/proc/}"; fi
	done
	return 0
}

# tl_sched PID: "POLICY PRIORITY" as chrt -p prints them (SCHED_FIFO 95)
tl_sched() {
	chrt -p "$1" | sed -n 's/.*policy: //p; s/.*priority: //p' | xargs
}

# One row of upstream's timerlat top: "%3d #%-9llu |", then per context
# (IRQ, thread, and user unless -k) cur, min, avg, max as "%9llu", or four
# "-" where the context saw nothing.
TL_V='[ 0-9]{8}[0-9]'
TL_NV='        -'
TL_BLOCK="($TL_V $TL_V $TL_V $TL_V|$TL_NV $TL_NV $TL_NV $TL_NV)"
TL_ROW_K="^[ 0-9]{2}[0-9] #[0-9][0-9 ]{8} [|]$TL_BLOCK [|]$TL_BLOCK\$"
TL_ROW_U="^[ 0-9]{2}[0-9] #[0-9][0-9 ]{8} [|]$TL_BLOCK [|]$TL_BLOCK [|]$TL_BLOCK\$"
# The ALL row: "ALL #%-6llu e%d |", min, avg, max per context after 10 spaces.
TL_ALL3="( {10}$TL_V $TL_V $TL_V)"
TL_ALL_K="^ALL #[0-9][0-9 ]{5} e[0-9] [|]$TL_ALL3 [|]$TL_ALL3\$"
TL_ALL_U="^ALL #[0-9][0-9 ]{5} e[0-9] [|]$TL_ALL3 [|]$TL_ALL3 [|]$TL_ALL3\$"

# tl_hist_row N: the ERE of a histogram row of N columns: "%-6d" index, then
# "%9d " per column
tl_hist_row() {
	echo "^([0-9][0-9 ]{5}|[0-9]{7,})( {0,8}[0-9]+ ){$1}\$"
}

# tl_hist_shape BUCKET ENTRIES [FILE]: FILE (out.txt) holds upstream's timerlat
# histogram for that bucket size and number of entries, with its index: an
# Index line naming the columns, rows in increasing index order, each index a
# multiple of BUCKET below BUCKET * ENTRIES with one count per column and not
# all zero (no row at all only when everything is over); the over row;
# count = the rows' sum + over per column; min and max (exact latencies, not
# bucket floors) in the first and last bucket with a count (max past the last
# bucket when over > 0), avg between them; then the ALL block: per context the
# sum of the counts, the least min, the greatest max.
tl_hist_shape() {
	awk -v bs="$1" -v entries="$2" '
		function fail(why) {
			print "tl_hist_shape: " why ": " $0
			bad = 1
			exit 1
		}
		/^Index/ && !state {
			ncol = NF - 1
			if (ncol < 1) fail("no column")
			for (i = 2; i <= NF; i++) kind[i] = substr($i, 1, 3)
			state = 1
			next
		}
		state == 1 && /^[0-9]/ {
			if (NF != ncol + 1) fail("not one count per column")
			if ($1 % bs) fail("an index not a multiple of " bs)
			if ($1 >= bs * entries) fail("an index past entry " entries)
			if (rows && $1 <= prev) fail("an index not above the one before")
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
			if (NF != ncol + 1) fail("not one over count per column")
			for (i = 2; i <= NF; i++) { over[i] = $i; over_sum += $i }
			state = 2
			next
		}
		state == 1 { fail("not a row") }
		state == 2 && /^count:/ {
			for (i = 2; i <= NF; i++) {
				count[i] = $i
				if ($i != in_range[i] + over[i]) fail("count is not the rows + over")
				all_count[kind[i]] += $i
			}
			next
		}
		state == 2 && /^min:/ {
			for (i = 2; i <= NF; i++) {
				lo[i] = $i
				if (!count[i]) { if ($i != "-") fail("a min without a count"); continue }
				if (i in first ? int($i / bs) * bs != first[i] : $i < bs * entries)
					fail("min is not in the first bucket with a count")
				if (!(kind[i] in all_min) || $i < all_min[kind[i]]) all_min[kind[i]] = $i
			}
			next
		}
		state == 2 && /^avg:/ {
			for (i = 2; i <= NF; i++) avg[i] = $i
			next
		}
		state == 2 && /^max:/ {
			for (i = 2; i <= NF; i++) {
				if (!count[i]) { if ($i != "-") fail("a max without a count"); continue }
				if (over[i] ? $i < bs * entries : int($i / bs) * bs != last[i])
					fail("max is not in the last bucket with a count")
				if (avg[i] < lo[i] || avg[i] > $i) fail("avg outside min..max")
				if ($i > all_max[kind[i]]) all_max[kind[i]] = $i
			}
			state = 3
			next
		}
		state == 3 && /^ALL:/ {
			for (i = 2; i <= NF; i++) all_kind[i] = substr($i, 1, 3)
			state = 4
			next
		}
		state == 4 && /^count:/ {
			for (i = 2; i <= NF; i++)
				if ($i != all_count[all_kind[i]]) fail("ALL count is not the sum of the CPUs")
			next
		}
		state == 4 && /^min:/ {
			for (i = 2; i <= NF; i++)
				if ($i != (all_kind[i] in all_min ? all_min[all_kind[i]] : "-"))
					fail("ALL min is not the least of the CPUs")
			next
		}
		state == 4 && /^max:/ {
			for (i = 2; i <= NF; i++)
				if ($i != (all_kind[i] in all_max ? all_max[all_kind[i]] : "-"))
					fail("ALL max is not the greatest of the CPUs")
			state = 5
			next
		}
		END {
			if (bad) exit 1
			# no row at all only where every latency passed the last bucket
			if (!rows && !over_sum) { print "tl_hist_shape: no row with a count"; exit 1 }
			if (state != 5) { print "tl_hist_shape: no over, summary and ALL rows (state " state ")"; exit 1 }
			print "tl_hist_shape: " rows " rows, " ncol " columns"
		}
	' "${3:-out.txt}"
}

# tl_wait_tracer PID: wait (10 s at most) until the instance of the rtla run
# PID (rtla_timerlat_PID) runs timerlat; any instance would do if the options
# were not yet the run's: one of another run, or one being removed
tl_wait_tracer() {
	local i
	for i in $(seq 100); do
		if grep -qx timerlat "$T/instances/rtla_timerlat_$1/current_tracer" 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	echo "rtla pid $1 runs no timerlat instance; instances: $(ls "$T/instances" | xargs)"
	return 1
}

# tl_foreign_reader CPU: a user-space workload of the test's own, as -U waits
# for: pinned to CPU, it opens that CPU's timerlat_fd and reads it in a loop
# (each read returns after the timer fired). Start it once the tracer runs
# (tl_wait_tracer). Its pid is in $reader.
tl_foreign_reader() {
	taskset -c "$1" bash -c 'exec 3<"$1" || exit 9; while :; do read -r -N1 -u 3 _; done' \
		reader "$T/osnoise/per_cpu/cpu$1/timerlat_fd" >/dev/null 2>&1 &
	reader=$!
}

# each TOOL case of upstream's timerlat list twice: top -q (or top with
# tl_top_hist), then hist (which has no -q); see upstream.bash's expect
tl_top_q_hist() {
	local want=$1 pattern=$2 absent=$3
	shift 3
	expect "$want" "$pattern" "$absent" -- timerlat top -q "$@"
	rm -f a
	expect "$want" "$pattern" "$absent" -- timerlat hist "$@"
}

tl_top_hist() {
	local want=$1 pattern=$2 absent=$3
	shift 3
	expect "$want" "$pattern" "$absent" -- timerlat top "$@"
	rm -f a
	expect "$want" "$pattern" "$absent" -- timerlat hist "$@"
}

# tl_look: an action (shell,command=...) that writes to state.txt what the
# kernel holds while the run is alive: the timerlat files, the PM QoS limit,
# and per workload thread (timerlat/N, timerlatu/N) a line
#   thread COMM cpus=LIST sched=POLICY:PRIO nice=N cgroup=PATH
tl_look() {
	cat >"$BATS_TEST_TMPDIR/look.sh" <<-'EOS'
	. /vm/lib/noise.bash
	. /vm/lib/timerlat.bash
	for f in timerlat_period_us print_stack stop_tracing_us stop_tracing_total_us cpus options; do
		echo "$f=$(cat "$T/osnoise/$f")"
	done
	echo "dma=$(dma_latency)"
	for pid in $(tl_pids 'timerlat/*') $(tl_pids 'timerlatu/*'); do
		echo "thread $(cat "/proc/$pid/comm")" \
			"cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$pid/status")" \
			"sched=$(tl_sched "$pid" | tr ' ' :)" \
			"nice=$(cut -d' ' -f19 "/proc/$pid/stat")" \
			"cgroup=$(cut -d: -f3 "/proc/$pid/cgroup")"
	done
	EOS
	echo "shell,command=bash $BATS_TEST_TMPDIR/look.sh > $BATS_TEST_TMPDIR/state.txt 2>&1"
}

untrace tl_unusual_settings tl_pids tl_wait_tracer tl_top_q_hist tl_top_hist
