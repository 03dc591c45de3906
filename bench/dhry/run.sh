#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rtla dhry benchmarks, run by bench/run.sh (RTLA is the binary):
#
#  fidelity  our DMIPS on one CPU against a reference Dhrystone 2.1 built with
#            the same compiler and flags, alternating in one run. Goal: within
#            +-2 %. The reference is the kernel's lib/dhry_{1,2}.c and dhry.h
#            (Weicker's 2.1 as Linux >= 6.2 ships it), taken from Debian's
#            linux-source package with apt at bench time, built in a temporary
#            folder against a small user-space shim, never committed.
#  scaling   all CPUs in parallel: total Dhrystones/s over the mean of the
#            same CPUs run one at a time. Goal: >= 0.95 x the CPU count.
#
# The fidelity pairs run at SCHED_FIFO priority 1 when root (DHRY_BENCH_RT=0
# turns that off): a busy machine then cannot preempt either side mid-run, so
# the pairs compare code rather than neighbours. The scaling runs, which hold
# every CPU, keep the normal policy.
#
# Environment: RTLA (required), CC (gcc), DHRY_BENCH_CPU (0),
# DHRY_BENCH_PAIRS (41), DHRY_BENCH_SECONDS (0.25, per fidelity run: short
# pairs follow a VM host's changing load closely), DHRY_BENCH_SCALING_ROUNDS (7),
# DHRY_REF_DIR (a folder already holding dhry.h dhry_1.c dhry_2.c).
set -eu

: "${RTLA:?set RTLA to the rtla binary}"
CC=${CC:-gcc}
cpu=${DHRY_BENCH_CPU:-0}
rounds=${DHRY_BENCH_PAIRS:-41}
seconds=${DHRY_BENCH_SECONDS:-0.25}
scale_rounds=${DHRY_BENCH_SCALING_ROUNDS:-7}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/rtla/dhry-ref
rt=()
if [ "${DHRY_BENCH_RT:-1}" != 0 ] && [ "$(id -u)" -eq 0 ] && command -v chrt >/dev/null; then
	rt=(chrt -f 1)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

py() { python3 -c "$@"; }
calc() { awk "BEGIN { printf \"%.10g\\n\", $1 }"; }
verdict() { awk "BEGIN { print ($1) ? \"PASS\" : \"MISS\" }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# --- the reference sources -------------------------------------------------

# Print the folder holding the kernel's dhry sources, fetching them if needed.
fetch_reference() {
	local pkg ver deb
	if [ -n "${DHRY_REF_DIR:-}" ]; then
		echo "$DHRY_REF_DIR"
		return
	fi
	pkg=$(apt-cache search --names-only '^linux-source-[0-9]+\.[0-9]+$' 2>/dev/null |
		awk '{ print $1 }' | sort -V | tail -1)
	if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		pkg=$(apt-cache search --names-only '^linux-source-[0-9]+\.[0-9]+$' 2>/dev/null |
			awk '{ print $1 }' | sort -V | tail -1)
	fi
	[ -n "$pkg" ] || { echo "no linux-source package is known to apt" >&2; return 1; }
	ver=${pkg#linux-source-}
	# lib/dhry_*.c arrived in Linux 6.2
	if [ "$(printf '%s\n6.2\n' "$ver" | sort -V | head -1)" != 6.2 ]; then
		echo "$pkg predates Linux 6.2, which brought lib/dhry_*.c" >&2
		return 1
	fi
	if [ -s "$cache/$ver/dhry_1.c" ]; then
		echo "$cache/$ver"
		return
	fi
	echo "fetching $pkg with apt (once; cached in $cache)" >&2
	(cd "$work" && apt-get download -q "$pkg" >/dev/null 2>"$work/apt.log") ||
		{ tail -1 "$work/apt.log" >&2; return 1; }
	deb=$(ls "$work"/*.deb)
	mkdir -p "$work/src"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards '*/linux-source-*.tar.xz' |
		xz -dc | tar -x -C "$work/src" --wildcards --strip-components=1 \
		'linux-source-*/lib/dhry.h' 'linux-source-*/lib/dhry_1.c' 'linux-source-*/lib/dhry_2.c'
	rm -f "$deb"
	mkdir -p "$cache/$ver"
	cp "$work"/src/lib/dhry.h "$work"/src/lib/dhry_1.c "$work"/src/lib/dhry_2.c "$cache/$ver/"
	echo "$cache/$ver"
}

# The kernel helpers the reference uses, in user space: our own few lines.
write_shim() {
	local d=$1/shim
	mkdir -p "$d/linux"
	cat >"$d/kshim.h" <<-'EOF'
	#pragma once
	#include <errno.h>
	#include <stdbool.h>
	#include <stdint.h>
	#include <stdio.h>
	#include <stdlib.h>
	#include <string.h>
	#include <time.h>
	typedef int64_t ktime_t;
	typedef uint32_t u32;
	#define MSEC_PER_SEC 1000u
	#define GFP_KERNEL 0
	#define GFP_ATOMIC 0
	extern int ref_errors;
	extern int64_t ref_ns;
	/* CPU time, as rtla dhry and Weicker's times()-based timing */
	static inline ktime_t ktime_get(void)
	{
		struct timespec ts;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		return (ktime_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	}
	/* keep the nanoseconds: the kernel's result is rounded to milliseconds */
	#define ktime_sub(a, b) (ref_ns = (a) - (b))
	#define ktime_to_ms(t) ((t) / 1000000)
	#define ktime_ms_delta(a, b) ((ref_ns = (a) - (b)) / 1000000)
	#define kzalloc(size, gfp) calloc(1, (size))
	#define kfree(p) free(p)
	#define mul_u32_u32(a, b) ((uint64_t)(a) * (b))
	#define div_u64(a, b) ((a) / (b))
	#define pr_debug(...) do { } while (0)
	#define pr_err(...) (ref_errors++, fprintf(stderr, __VA_ARGS__))
	EOF
	for h in ktime slab string kernel; do
		echo '#include "../kshim.h"' >"$d/linux/$h.h"
	done
	cat >"$1/ref_main.c" <<-'EOF'
	#include <errno.h>
	#include <stdint.h>
	#include <stdio.h>
	#include <stdlib.h>
	int dhry(int n);
	int ref_errors;
	int64_t ref_ns;
	int main(int argc, char **argv)
	{
		int n = atoi(argv[1]), ret = dhry(n);

		/* -EAGAIN only says the run was under the kernel's 2 s */
		if (ref_errors || (ret < 0 && ret != -EAGAIN) || ref_ns <= 0) {
			fprintf(stderr, "reference: %s\n", ref_errors ? "wrong final values" : "failed");
			return 1;
		}
		printf("%.0f\n", n * 1e9 / ref_ns);
		return 0;
	}
	EOF
}

# --- fidelity ----------------------------------------------------------------

fidelity() {
	local ref info cflags compiler n ours theirs i o r ratio
	echo "-- fidelity: rtla dhry against a reference Dhrystone 2.1 build, CPU $cpu"
	"$RTLA" dhry -c "$cpu" -d 1 --json "$work/cal.json" >/dev/null
	cflags=$(py 'import json,sys; print(json.load(open(sys.argv[1]))["cflags"])' "$work/cal.json")
	compiler=$(py 'import json,sys; print(json.load(open(sys.argv[1]))["compiler"])' "$work/cal.json")
	# iterations for about $seconds s per run, the same count for both
	n=$(py 'import json,sys; d=json.load(open(sys.argv[1])); print(min(2147483637, int(d["cpus"][0]["dhrystones_per_second"] * float(sys.argv[2]))))' \
		"$work/cal.json" "$seconds")

	if ! ref=$(fetch_reference); then
		echo "reference: NOT AVAILABLE (no Dhrystone 2.1 source could be obtained from Debian);"
		echo "fidelity: not measured"
		return 0
	fi
	write_shim "$work"
	# shellcheck disable=SC2086 # the flags are a list
	for u in dhry_1 dhry_2; do
		$CC -std=gnu11 -I"$work/shim" -I"$ref" $cflags -w -c -o "$work/$u.o" "$ref/$u.c"
	done
	$CC -O2 -c -o "$work/ref_main.o" "$work/ref_main.c"
	$CC -o "$work/ref_dhry" "$work/ref_main.o" "$work/dhry_1.o" "$work/dhry_2.o"
	info="$compiler, $cflags"
	[ "$($CC -dumpfullversion 2>/dev/null)" = "${compiler#gcc }" ] ||
		info="$info (reference compiler: $($CC --version | head -1))"
	echo "reference: $ref (Linux lib/dhry_*.c), built with $info"
	instructions "$ref"

	# Time: pairs run back to back, so that both sides of a pair meet the same
	# machine; the median of the pair ratios and the best of each side (the
	# run least disturbed) both estimate the difference.
	echo "time: $rounds pairs of $n iterations (~$seconds s each), alternating, CPU time${rt:+, ${rt[*]}}"
	printf '%-6s %14s %14s %8s\n' pair rtla-dhry/s ref-dhry/s ratio
	: >"$work/ours" && : >"$work/theirs" && : >"$work/ratios"
	for i in $(seq "$rounds"); do
		# who goes first alternates too: no side always follows the other
		[ $((i % 2)) -eq 1 ] || r=$("${rt[@]}" taskset -c "$cpu" "$work/ref_dhry" "$n")
		"${rt[@]}" "$RTLA" dhry -c "$cpu" -i "$n" --json "$work/o.json" >/dev/null 2>&1
		o=$(py 'import json,sys; print(round(json.load(open(sys.argv[1]))["cpus"][0]["dhrystones_per_second"]))' "$work/o.json")
		[ $((i % 2)) -eq 0 ] || r=$("${rt[@]}" taskset -c "$cpu" "$work/ref_dhry" "$n")
		echo "$o" >>"$work/ours"
		echo "$r" >>"$work/theirs"
		calc "$o / $r" >>"$work/ratios"
		printf '%-6s %14s %14s %8.4f\n' "$i" "$o" "$r" "$(calc "$o / $r")"
	done
	ours=$(sort -g "$work/ours" | tail -1)
	theirs=$(sort -g "$work/theirs" | tail -1)
	printf 'best: rtla %.1f DMIPS, reference %.1f DMIPS: %+.2f %%\n' \
		"$(calc "$ours / 1757")" "$(calc "$theirs / 1757")" "$(calc "($ours / $theirs - 1) * 100")"
	ratio=$(calc "($(median <"$work/ratios") - 1) * 100")
	printf 'fidelity (median of pair ratios): %+.2f %% (goal: within +-2 %%): %s\n' "$ratio" \
		"$(verdict "${ratio#-} <= 2")"
}

# Instructions per Dhrystone under valgrind, where it is installed: unlike
# time, a count that the machine's load cannot disturb.
instructions() {
	local ref=$1 a b c d
	if ! command -v valgrind >/dev/null; then
		echo "instructions: not counted (valgrind is not installed)"
		return 0
	fi
	# rtla runs the benchmark in a worker process: the busiest process is it
	count() { valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=/dev/null \
		"$@" 2>&1 >/dev/null | sed -n 's/.*Collected : *//p' | sort -n | tail -1; }
	# two counts, so that start-up and set-up cancel out
	a=$(count "$RTLA" dhry -c "$cpu" -i 100000)
	b=$(count "$RTLA" dhry -c "$cpu" -i 200000)
	c=$(count "$work/ref_dhry" 100000)
	d=$(count "$work/ref_dhry" 200000)
	printf 'instructions per Dhrystone: rtla %.2f, reference %.2f (%+.2f %%)\n' \
		"$(calc "($b - $a) / 100000")" "$(calc "($d - $c) / 100000")" \
		"$(calc "(($b - $a) / ($d - $c) - 1) * 100")"
}

# --- scaling -----------------------------------------------------------------

scaling() {
	local ncpus i par seq ratio goal
	ncpus=$("$RTLA" dhry -i 1 -o CPU -n -r 2>/dev/null | wc -l)
	echo "-- scaling: $ncpus CPUs in parallel against the same CPUs one at a time"
	printf '%-6s %16s %16s %8s\n' round parallel-total sequential-mean ratio
	: >"$work/ratios"
	for i in $(seq "$scale_rounds"); do
		"$RTLA" dhry --sequential --json "$work/s.json" >/dev/null 2>&1 || true
		"$RTLA" dhry --parallel --json "$work/p.json" >/dev/null 2>&1 || true
		seq=$(py 'import json,sys; d=json.load(open(sys.argv[1])); print(d["total_dhrystones_per_second"] / len(d["cpus"]))' "$work/s.json")
		par=$(py 'import json,sys; print(json.load(open(sys.argv[1]))["total_dhrystones_per_second"])' "$work/p.json")
		ratio=$(calc "$par / $seq")
		echo "$ratio" >>"$work/ratios"
		printf '%-6s %16.0f %16.0f %8.3f\n' "$i" "$par" "$seq" "$ratio"
	done
	ratio=$(median <"$work/ratios")
	goal=$(calc "0.95 * $ncpus")
	printf 'median scaling: %.3f on %d CPUs (goal: >= %.2f): %s\n' "$ratio" "$ncpus" "$goal" \
		"$(verdict "$ratio >= $goal")"
}

echo "machine: $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
fidelity
scaling
