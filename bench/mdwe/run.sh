#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The audit of every process with 2,000 extra sleeping processes: rtla mdwe
# (its default filter looks at every process) against a shell scan of
# /proc/*/maps for W+X mappings (grep names the file of each match, awk
# counts them per process), side by side in one run. Goal: at most half of
# the scan's time. The BPF reader's load and iteration are reported apart
# (rtla mdwe -D): the load is mostly libbpf parsing the kernel's BTF, and on
# a busy machine it swings from a few to tens of milliseconds.
#
#   RTLA=build/rtla bench/mdwe/run.sh      (or: bench/run.sh --build build mdwe)
#   EXTRA=2000 RUNS=30 to change the load and the repetitions
#
# Needs root (the BPF reader). Every process it starts is killed by its PID.
set -eu

rtla=${RTLA:-build/rtla}
extra=${EXTRA:-2000}
runs=${RUNS:-30}
sleepers=()
tmp=$(mktemp -d)

cleanup() {
	[ ${#sleepers[@]} -eq 0 ] || kill "${sleepers[@]}" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

[ -x "$rtla" ] || { echo "mdwe bench: no rtla binary at $rtla (set RTLA)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "mdwe bench: needs root (the BPF reader)" >&2; exit 1; }

# the anchor: every process's maps, W+X lines counted per file
cat >"$tmp/scan.sh" <<'SCAN'
grep -sH -E '^[0-9a-f]+-[0-9a-f]+ .wx' /proc/[0-9]*/maps |
	awk -F: '{ n[$1]++ } END { for (f in n) print f, n[f] }'
SCAN

for _ in $(seq "$extra"); do
	sleep 3600 &
	sleepers+=($!)
done
for p in "${sleepers[@]}"; do
	until [ "$(cat "/proc/$p/comm" 2>/dev/null)" = sleep ]; do sleep 0.01; done
done
nproc_now=$(find /proc -maxdepth 1 -name '[0-9]*' | wc -l)
echo "processes: $nproc_now (with $extra sleeping ones started for the run)"
echo "W+X processes: rtla mdwe $("$rtla" mdwe --raw -n -o WX 2>/dev/null | grep -vc '^0$'), scan $(sh "$tmp/scan.sh" | wc -l)"

# median wall time in ms of a command over $runs runs, output discarded
median_ms() {
	local t0 t1
	for _ in $(seq "$runs"); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000))
	done | sort -n | awk '{ a[NR] = $1 } END { printf "%.2f", a[int((NR + 1) / 2)] / 1000 }'
}

if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 3 --runs "$runs" --export-json "$tmp/h.json" \
		"$rtla mdwe" "sh $tmp/scan.sh" "$rtla mdwe --all" >&2
	read -r ours theirs all < <(/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(" ".join("%.2f" % (x["median"] * 1000) for x in r))' "$tmp/h.json")
	how="hyperfine median of $runs"
else
	# interleaved, so that a busy spell of the machine hits both
	ours=$(median_ms "$rtla" mdwe)
	theirs=$(median_ms sh "$tmp/scan.sh")
	all=$(median_ms "$rtla" mdwe --all)
	how="median of $runs timed runs (no hyperfine)"
fi
# the reader's own figures: median load and iteration
for _ in $(seq "$runs"); do
	"$rtla" mdwe -D 2>&1 >/dev/null | sed -n 's/.*debug: BPF: load \([0-9.]*\) ms, iteration \([0-9.]*\) ms.*/\1 \2/p'
done >"$tmp/bpf"
load=$(sort -n -k1 "$tmp/bpf" | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] }')
iter=$(sort -n -k2 "$tmp/bpf" | awk '{ a[NR] = $2 } END { printf "%.1f", a[int((NR + 1) / 2)] }')

ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
ratio_noload=$(awk -v a="$ours" -v l="$load" -v b="$theirs" 'BEGIN { printf "%.2f", (a - l) / b }')
echo "$how: rtla mdwe ${ours} ms, scan of /proc/*/maps ${theirs} ms, rtla mdwe --all ${all} ms"
echo "BPF reader (median of $runs): load ${load} ms, iteration ${iter} ms"
if awk -v r="$ratio" 'BEGIN { exit !(r <= 0.5) }'; then
	echo "ratio rtla mdwe/scan: $ratio (goal <= 0.50: met); without the BPF load: $ratio_noload"
else
	echo "ratio rtla mdwe/scan: $ratio (goal <= 0.50: MISSED); without the BPF load: $ratio_noload"
fi
