#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The audit of every process with 2,000 extra sleeping processes: rtla mdwe
# (its default filter looks at every process) against a shell scan of
# /proc/*/maps for W+X mappings (grep names the file of each match, awk
# counts them per process), side by side in one run. Goal: at most half of
# the scan's time. The BPF reader's load and iteration are reported apart
# (rtla mdwe -D): the load is the kernel verifying the programs and fitting
# them to its BTF (a light skeleton: rtla itself parses no BTF).
#
#   RTLA=build/rtla bench/mdwe/run.sh      (or: bench/run.sh --build build mdwe)
#   EXTRA=2000 RUNS=30 to change the load and the repetitions
#
# Needs root (the BPF reader) and GNU time (/usr/bin/time, Debian's "time").
# Every process it starts is killed by its PID.
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

[ -x "$rtla" ] || { echo "mdwe bench: no rtla binary at $rtla (set RTLA)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "mdwe bench: needs root (the BPF reader)" >&2; exit 1; }

# the anchor: every process's maps, W+X lines counted per file
cat >"$tmp/scan.sh" <<'SCAN'
grep -sH -E '^[0-9a-f]+-[0-9a-f]+ .wx' /proc/[0-9]*/maps |
	awk -F: '{ n[$1]++ } END { for (f in n) print f, n[f] }'
SCAN

start_sleepers "$extra"
nproc_now=$(nprocs)
echo "processes: $nproc_now (with $extra sleeping ones started for the run)"
echo "W+X processes: rtla mdwe $("$rtla" mdwe --raw -n -o WX 2>/dev/null | grep -vc '^0$'), scan $(sh "$tmp/scan.sh" | wc -l)"

# One round times each command once, in turn, so that a busy spell of the
# machine (it is shared) hits all of them alike: wall and CPU (user + system,
# GNU time's 10 ms resolution) time in ms, one line per command and round, in
# $tmp/NAME.
time_round() {
	local name t0 t1
	for name in ours scan all; do
		case $name in
		ours) set -- "$rtla" mdwe ;;
		scan) set -- sh "$tmp/scan.sh" ;;
		all) set -- "$rtla" mdwe --all ;;
		esac
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null 2>&1
		t1=$EPOCHREALTIME
		awk -v t0="$t0" -v t1="$t1" '{ printf "%.1f %.1f\n", (t1 - t0) * 1000, ($1 + $2) * 1000 }' \
			"$tmp/t" >>"$tmp/$name"
	done
}

# median of column $2 of file $1
median() {
	sort -n -k"$2" "$1" | awk -v c="$2" '{ a[NR] = $c } END { printf "%.1f", a[int((NR + 1) / 2)] }'
}

for _ in $(seq 3); do time_round; done	# warm-up
rm -f "$tmp/ours" "$tmp/scan" "$tmp/all"
for _ in $(seq "$runs"); do time_round; done
ours=$(median "$tmp/ours" 1) theirs=$(median "$tmp/scan" 1) all=$(median "$tmp/all" 1)
ours_cpu=$(median "$tmp/ours" 2) theirs_cpu=$(median "$tmp/scan" 2)
how="median of $runs interleaved rounds"

# the reader's own figures: median load and iteration
for _ in $(seq "$runs"); do
	"$rtla" mdwe -D 2>&1 >/dev/null | sed -n 's/.*debug: BPF: load \([0-9.]*\) ms, iteration \([0-9.]*\) ms.*/\1 \2/p'
done >"$tmp/bpf"
load=$(sort -n -k1 "$tmp/bpf" | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] }')
iter=$(sort -n -k2 "$tmp/bpf" | awk '{ a[NR] = $2 } END { printf "%.1f", a[int((NR + 1) / 2)] }')

ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
ratio_noload=$(awk -v a="$ours" -v l="$load" -v b="$theirs" 'BEGIN { printf "%.2f", (a - l) / b }')
ratio_cpu=$(awk -v a="$ours_cpu" -v b="$theirs_cpu" 'BEGIN { printf "%.2f", a / b }')
echo "$how, wall: rtla mdwe ${ours} ms, scan of /proc/*/maps ${theirs} ms, rtla mdwe --all ${all} ms"
echo "CPU time (user + system): rtla mdwe ${ours_cpu} ms, scan ${theirs_cpu} ms: ratio $ratio_cpu"
echo "BPF reader (median of $runs): load ${load} ms, iteration ${iter} ms"
if awk -v r="$ratio" 'BEGIN { exit !(r <= 0.5) }'; then
	echo "ratio rtla mdwe/scan: $ratio (goal <= 0.50: met); without the BPF load: $ratio_noload"
else
	echo "ratio rtla mdwe/scan: $ratio (goal <= 0.50: MISSED); without the BPF load: $ratio_noload"
fi
