#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The sampler backend on this machine, three figures (needs root):
#
#  resolution   ns per loop iteration of our spinner against an oslat-style
#               loop, alternated on one CPU (goal <= 12 ns here)
#  accuracy     a SCHED_FIFO injector interrupts a measured CPU COUNT times
#               for BUSY us; the share of injections the sampler's gap list
#               holds, and the error of its total against the injected total
#               (goal >= 99 % found, total within +-3 %)
#  attribution  the share of measured noise time that OS events explain
#
#   bench/sampler/run.sh             (RTLA: the binary; default build/rtla)
#   CPU=1 COUNT=500 INTERVAL_US=20000 BUSY_US=1000 bench/sampler/run.sh
#   STEPS="accuracy" bench/sampler/run.sh
set -eu
cd "$(dirname "$0")/../.."
RTLA=$(readlink -f "${RTLA:-build/rtla}")
build=$(dirname "$RTLA")
cpu=${CPU:-$(($(nproc) - 1))}
count=${COUNT:-200}
interval=${INTERVAL_US:-20000}
busy=${BUSY_US:-2000}
attr_secs=${ATTR_SECONDS:-10}
steps=${STEPS:-resolution accuracy attribution}
quiet_wait=${QUIET_WAIT:-120}

[ "$(id -u)" -eq 0 ] || { echo "bench/sampler needs root" >&2; exit 1; }
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "keeping $tmp" >&2 || trap 'rm -rf "$tmp"' EXIT

pkgs="libtracefs libtraceevent libproc2 ncursesw libcap smartcols"
gcc -O2 -std=gnu11 -D_GNU_SOURCE -Wall -Isrc $(pkg-config --cflags $pkgs) \
	-o "$tmp/resolution" bench/sampler/resolution.c "$build/librtla.a" \
	$(pkg-config --libs $pkgs) -lpthread -lm
gcc -O2 -std=gnu11 -Wall -o "$tmp/inject" bench/sampler/inject.c

# CPU busy % of the whole machine over one second, from /proc/stat
busy_pct() {
	local a b
	a=($(head -1 /proc/stat))
	sleep 1
	b=($(head -1 /proc/stat))
	local tot=0 idle=$(((b[4] - a[4]) + (b[5] - a[5])))
	for i in 1 2 3 4 5 6 7 8; do tot=$((tot + b[i] - a[i])); done
	echo $((tot ? 100 * (tot - idle) / tot : 0))
}

# Other tenants' load lands in every figure: wait (up to QUIET_WAIT s) for
# the machine to be under 10 % busy, and say how busy it was.
wait_quiet() {
	local pct start=$SECONDS
	while pct=$(busy_pct); [ "$pct" -ge 10 ] && [ $((SECONDS - start)) -lt "$quiet_wait" ]; do
		:
	done
	echo "   (machine ${pct} % busy before this step)"
}

resolution() {
	echo "-- resolution on CPU $cpu"
	wait_quiet
	"$tmp/resolution" "$cpu" 5 1
}

accuracy() {
echo "-- accuracy on CPU $cpu: $count injections of $busy us every $interval us"
wait_quiet
secs=$((count * interval / 1000000 + 4))
"$RTLA" osnoise top --backend sampler -c "$cpu" -T 10 -d "${secs}s" -q \
	--on-end trace,file="$tmp/trace.txt" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 100); do
	[ -d "/sys/kernel/tracing/instances/rtla_sampler_$pid" ] && break
	sleep 0.1
done
sleep 1
"$tmp/inject" "$cpu" "$count" "$interval" "$busy" "$tmp/inj.txt"
wait "$pid" || { cat "$tmp/err" >&2; exit 1; }
# An injection takes the CPU from its timer's expiry to the end of its busy
# loop; the gap that holds it also holds the switch back to the spinner.
# On a loaded machine other tasks may run before the spinner gets its CPU
# back: the error figure is taken over the gaps where only the injector ran
# ("clean"), and the error over every found gap is shown beside it.
awk -v cpu="$cpu" -v slack=2000 '
	# injections: expiry_ns start_ns end_ns; trace: TIME(s.ns) CPU DURATION(ns) CLASS EVENTS...
	BEGIN { n = 0; lo = 0 }
	FNR == NR { x[n] = $1; s[n] = $2; e[n] = $3; n++; next }
	/^#/ || $2 != cpu { next }
	{
		split($1, t, "."); gs = t[1] * 1e9 + t[2]; ge = gs + $3
		line = $0; nsw = gsub(/switch:/, "", line)
		clean = nsw == 1 && index($0, "switch:inject[") && !index($0, "(+")
		for (i = lo; i < n; i++) {
			if (e[i] < gs - slack) { if (i == lo) lo++; continue }
			if (s[i] > ge) break
			if (gs <= s[i] + slack && ge >= e[i] - slack && !(i in got)) {
				got[i] = $3; cls[i] = $4; cln[i] = clean; pre[i] = x[i] - gs
			}
		}
	}
	END {
		for (i = 0; i < n; i++) {
			if (!(i in got)) {
				if (++missed <= 3)
					printf "         not found: injection %d at %.9f s\n", i, s[i] / 1e9
				continue
			}
			found++; meas += got[i]; inj += e[i] - x[i]; thr += cls[i] == "thread"
			if (cln[i]) {
				measc += got[i]; injc += e[i] - x[i]; prec += pre[i]
				ex[nc++] = got[i] - (e[i] - x[i])
			}
		}
		printf "RESULT accuracy: %d of %d injections found (%.2f %%, goal >= 99), %d classed thread\n",
			found, n, 100 * found / n, thr
		printf "RESULT accuracy: total over %d clean gaps: measured %.3f ms vs injected %.3f ms: " \
			"error %+.2f %% (goal +-3)\n", nc, measc / 1e6, injc / 1e6,
			injc ? 100 * (measc - injc) / injc : 0
		for (i = 1; i < nc; i++)	# insertion sort, for the median
			for (j = i; j > 0 && ex[j - 1] > ex[j]; j--) { v = ex[j]; ex[j] = ex[j - 1]; ex[j - 1] = v }
		printf "         the gap starts %+.1f us before the timer expiry on average; it is longer " \
			"than the injection by %.1f us (median), %.1f us (mean)\n", nc ? prec / nc / 1e3 : 0,
			nc ? ex[int(nc / 2)] / 1e3 : 0, nc ? (measc - injc) / nc / 1e3 : 0
		printf "         over all %d found gaps (other tasks included): measured %.3f ms vs " \
			"injected %.3f ms: %+.2f %%\n", found, meas / 1e6, inj / 1e6,
			inj ? 100 * (meas - inj) / inj : 0
	}' "$tmp/inj.txt" "$tmp/trace.txt"
}

attribution() {
echo "-- attribution: osnoise top on every CPU for ${attr_secs} s, threshold 1 us"
wait_quiet
"$RTLA" osnoise top --backend sampler -d "${attr_secs}s" -q \
	--on-end trace,file="$tmp/attr.txt" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
cat "$tmp/out"
grep '^# cpu' "$tmp/attr.txt" | sed 's/^# /RESULT attribution: /'
}

for step in $steps; do
	$step
done
