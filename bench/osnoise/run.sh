#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The cost of the tool against upstream rtla 6.12 (the peer), side by side in
# one boot of the 6.12 RT kernel of the VM tier: the same 30 s
# `hwnoise -c 1 -q` run with each, alternated, measuring the CPU time of the
# tool process itself (user + system, from bash's time) and the noise it let
# the measured CPU see. Reports the ratios ours/peer.
#
#   bench/osnoise/run.sh            (RTLA: the binary; default build/rtla)
#   RUNS=3 SECONDS_PER_RUN=30 bench/osnoise/run.sh
set -eu
cd "$(dirname "$0")/../.."
RTLA=${RTLA:-build/rtla}
runs=${RUNS:-2}
secs=${SECONDS_PER_RUN:-30}

script=$(cat <<EOS
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
out=$(tests/kernel/vm-tier.sh --rtla "$RTLA" --kernel 6.12 --cmd "$script")
echo "$out" | grep '^RESULT' | awk -v runs="$runs" '
	# RESULT tool user sys cpu #periods runtime noise avail maxnoise maxsingle hw nmi
	{
		cpu[$2] += $3 + $4; noise[$2] += $8; single[$2] = ($11 > single[$2] ? $11 : single[$2])
		printf "%-10s cpu %6.2f s  noise %8d us  max single %6d us\n", $2, $3 + $4, $8, $11
	}
	END {
		printf "\nours/peer over %d runs each:\n", runs
		printf "  tool CPU time:  %.2f s / %.2f s = %.3f (goal <= 0.5)\n", cpu["rtla"], cpu["rtla-peer"],
			cpu["rtla-peer"] ? cpu["rtla"] / cpu["rtla-peer"] : 0
		printf "  measured noise: %d us / %d us = %.3f (goal <= 1, within run-to-run variance)\n",
			noise["rtla"], noise["rtla-peer"], noise["rtla-peer"] ? noise["rtla"] / noise["rtla-peer"] : 0
	}'
