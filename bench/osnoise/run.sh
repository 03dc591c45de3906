#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The cost of the tool against upstream rtla 6.12 (the peer), side by side in
# one boot of the 6.12 RT kernel of the VM tier: the same 30 s
# `hwnoise -c 1 -q` run with each, alternated, measuring the CPU time of the
# tool process itself (user + system, from bash's time) and the noise it let
# the measured CPU see; then the same for `osnoise hist -c 1`, with the peak
# RSS of the tool (VmHWM) and the samples each counted. Reports the ratios
# ours/peer.
#
#   bench/osnoise/run.sh            (RTLA: the binary; default build/rtla)
#   RUNS=3 SECONDS_PER_RUN=30 bench/osnoise/run.sh
#   TOOLS=hist bench/osnoise/run.sh  (only hist; TOOLS=top only hwnoise)
#   TOOLS=sampler bench/osnoise/run.sh  (the peak RSS of ours on the sampler
#                                        backend, top and hist; no peer has one)
set -eu
cd "$(dirname "$0")/../.."
RTLA=${RTLA:-build/rtla}
runs=${RUNS:-2}
secs=${SECONDS_PER_RUN:-30}
tools=${TOOLS:-top hist}

top_script=$(cat <<EOS
TIMEFORMAT='%U %S'
for i in \$(seq $runs); do
	for tool in rtla rtla-peer; do
		{ time \$tool hwnoise -c 1 -d ${secs}s -q >/tmp/out 2>&1 ; } 2>/tmp/time
		row=\$(grep '^  1 #' /tmp/out)
		echo "RESULT \$tool \$(cat /tmp/time) \$row"
	done
done
EOS
)

# hist: the tool's peak RSS is read from /proc while it runs (the guest has no
# GNU time), by a loop outside what bash's time measures
hist_script=$(cat <<EOS
TIMEFORMAT='%U %S'
for i in \$(seq $runs); do
	for tool in rtla rtla-peer; do
		{ time \$tool osnoise hist -c 1 -d ${secs}s >/tmp/out 2>&1 ; } 2>/tmp/time &
		bg=\$!
		hwm=0
		while kill -0 \$bg 2>/dev/null; do
			for pid in \$(pidof rtla); do
				h=\$(awk '/^VmHWM/ { print \$2 }' /proc/\$pid/status 2>/dev/null)
				[ -n "\$h" ] && [ "\$h" -gt "\$hwm" ] && hwm=\$h
			done
			sleep 1
		done
		wait \$bg
		count=\$(awk '/^count:/ { print \$2 }' /tmp/out)
		echo "HIST \$tool \$(cat /tmp/time) \$hwm \${count:-0}"
	done
done
EOS
)

sampler_script=$(cat <<EOS
for i in \$(seq $runs); do
	for args in "hwnoise --backend sampler -c 1 -d ${secs}s -q" "osnoise hist --backend sampler -c 1 -d ${secs}s"; do
		rtla \$args >/tmp/out 2>&1 &
		bg=\$!
		hwm=0
		while kill -0 \$bg 2>/dev/null; do
			h=\$(awk '/^VmHWM/ { print \$2 }' /proc/\$bg/status 2>/dev/null)
			[ -n "\$h" ] && [ "\$h" -gt "\$hwm" ] && hwm=\$h
			sleep 1
		done
		wait \$bg
		echo "SAMPLER \$hwm \${args%% --*}"
	done
done
EOS
)

for t in $tools; do
	case $t in
	top) script+="$top_script"$'\n' ;;
	hist) script+="$hist_script"$'\n' ;;
	sampler) script+="$sampler_script"$'\n' ;;
	*) echo "unknown tool '$t' in TOOLS (top, hist, sampler)" >&2; exit 1 ;;
	esac
done
out=$(tests/kernel/vm-tier.sh --rtla "$RTLA" --kernel 6.12 --cmd "$script")
if grep -q '^RESULT' <<<"$out"; then
	echo "hwnoise -c 1 -d ${secs}s -q:"
	echo "$out" | grep '^RESULT' | awk -v runs="$runs" '
	# RESULT tool user sys cpu #periods runtime noise avail maxnoise maxsingle hw nmi
	{
		cpu[$2] += $3 + $4; noise[$2] += $8; single[$2] = ($11 > single[$2] ? $11 : single[$2])
		printf "%-10s cpu %6.2f s  noise %8d us  max single %6d us\n", $2, $3 + $4, $8, $11
	}
	END {
		printf "\nours/peer over %d runs each:\n", runs
		printf "  tool CPU time:  %.2f s / %.2f s = %.3f (goal <= 0.25)\n", cpu["rtla"], cpu["rtla-peer"],
			cpu["rtla-peer"] ? cpu["rtla"] / cpu["rtla-peer"] : 0
		printf "  measured noise: %d us / %d us = %.3f (goal <= 1, within run-to-run variance)\n",
			noise["rtla"], noise["rtla-peer"], noise["rtla-peer"] ? noise["rtla"] / noise["rtla-peer"] : 0
	}'
fi
if grep -q '^HIST' <<<"$out"; then
	echo
	echo "osnoise hist -c 1 -d ${secs}s:"
	echo "$out" | grep '^HIST' | awk -v runs="$runs" '
	# HIST tool user sys vmhwm_kb count
	{
		cpu[$2] += $3 + $4; rss[$2] = ($5 > rss[$2] ? $5 : rss[$2]); n[$2] += $6
		printf "%-10s cpu %6.2f s  peak RSS %7d kB  samples %10d\n", $2, $3 + $4, $5, $6
	}
	END {
		printf "\nours/peer over %d runs each:\n", runs
		printf "  tool CPU time:  %.2f s / %.2f s = %.3f (goal <= 0.25)\n", cpu["rtla"], cpu["rtla-peer"],
			cpu["rtla-peer"] ? cpu["rtla"] / cpu["rtla-peer"] : 0
		printf "  peak RSS:       %d kB / %d kB (goal: ours <= 8192 kB)\n", rss["rtla"], rss["rtla-peer"]
		printf "  samples:        %d / %d = %.3f (both count in the kernel: run-to-run variance)\n",
			n["rtla"], n["rtla-peer"], n["rtla-peer"] ? n["rtla"] / n["rtla-peer"] : 0
	}'
fi
if grep -q '^SAMPLER' <<<"$out"; then
	echo
	echo "sampler backend, -c 1 -d ${secs}s, peak RSS of ours (goal <= 8192 kB):"
	echo "$out" | grep '^SAMPLER' | awk '{ printf "  %-14s %7d kB\n", $3 " " $4, $2 }'
fi
