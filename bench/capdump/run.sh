#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Scan time of every process with 2,000 extra sleeping processes: rtla
# capdump -a against pscap -a (libcap-ng-utils), side by side in one run.
# Goal: at most half of pscap's time.
#
#   RTLA=build/rtla bench/capdump/run.sh      (or: bench/run.sh --build build capdump)
#   EXTRA=2000 RUNS=30 to change the load and the repetitions
#
# Uses hyperfine when installed, else a timed loop (median of RUNS). Every
# process it starts is killed by its PID before it exits.
set -eu

rtla=${RTLA:-build/rtla}
extra=${EXTRA:-2000}
runs=${RUNS:-30}
tmp=$(mktemp -d)
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"

cleanup() {
	kill_sleepers
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

[ -x "$rtla" ] || { echo "capdump bench: no rtla binary at $rtla (set RTLA)" >&2; exit 1; }
command -v pscap >/dev/null || {
	echo "capdump bench: needs pscap (apt-get install libcap-ng-utils)" >&2; exit 1; }

start_sleepers "$extra"
nproc_now=$(nprocs)
echo "processes: $nproc_now (with $extra sleeping ones started for the run)"
echo "rows: rtla capdump -a $("$rtla" capdump -a -n | wc -l), pscap -a $(pscap -a | tail -n +2 | wc -l)"

# median wall time in ms of a command over $runs runs, output discarded
median_ms() {
	local t0 t1
	for _ in $(seq "$runs"); do
		t0=$(date +%s%N)
		"$@" > /dev/null
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000))
	done | sort -n | awk '{ a[NR] = $1 } END { printf "%.2f", a[int((NR + 1) / 2)] / 1000 }'
}

if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 3 --runs "$runs" --export-json "$tmp/h.json" \
		"$rtla capdump -a" "pscap -a" "$rtla capdump"
	read -r ours theirs default < <(/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(" ".join("%.2f" % (x["median"] * 1000) for x in r))' "$tmp/h.json")
	how="hyperfine median of $runs"
else
	ours=$(median_ms "$rtla" capdump -a)
	theirs=$(median_ms pscap -a)
	default=$(median_ms "$rtla" capdump)
	how="median of $runs timed runs (no hyperfine)"
fi
ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
echo "$how: rtla capdump -a ${ours} ms, pscap -a ${theirs} ms, rtla capdump (default filter) ${default} ms"
if awk -v r="$ratio" 'BEGIN { exit !(r <= 0.5) }'; then
	echo "ratio rtla/pscap: $ratio (goal <= 0.50: met)"
else
	echo "ratio rtla/pscap: $ratio (goal <= 0.50: MISSED)"
fi
