#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rtla timerlat against upstream rtla 6.12 (the peer), in one boot of the
# 6.12 RT kernel of the VM tier:
#
#   cost      the same `timerlat top -q -k` and `timerlat hist -k` runs with
#             each, alternated, on one CPU and on all: the CPU time of the
#             tool (user + system from bash's time) and its peak RSS
#             (VmHWM); ratios ours/peer. Goals: CPU <= 0.25x the peer's, RSS
#             <= 8 MiB. With the kernel's threads (-k): bash's time counts
#             the children a process reaped, and with -u both tools' workers
#             (timerlatu/N, their children) would add the same cost of the
#             measured workload itself to each.
#   fidelity  one `timerlat top` and one `timerlat hist` run of ours with the
#             trace of the same run saved (--on-end trace: the record
#             instance, which the tracer fills with the same samples); the
#             statistics computed here from that raw trace, cut to the
#             activations the record names (seq_first..seq_last per CPU and
#             context), must equal ours sample for sample: counts, exact
#             min/max in ns, hist's buckets and percentiles.
#
#   bench/timerlat/run.sh            (RTLA: the binary; default build/rtla)
#   RUNS=3 SECONDS_PER_RUN=30 bench/timerlat/run.sh
#   PARTS=fidelity bench/timerlat/run.sh
#
#   sampler   on this machine's kernel (no timerlat tracer): the sampler
#             backend beside cyclictest, the attribution of a known cause,
#             the observer effect (bench/timerlat/sampler.py says how)
set -eu
cd "$(dirname "$0")/../.."
RTLA=${RTLA:-build/rtla}
runs=${RUNS:-2}
secs=${SECONDS_PER_RUN:-30}
parts=${PARTS:-cost fidelity sampler}

# CPU time and peak RSS of one run: "COST tool cpus mode user sys hwm_kb"
cost_script=$(cat <<EOS
TIMEFORMAT='%U %S'
for i in \$(seq $runs); do
	for cpus in "-c 1" ""; do
		for mode in "top -q -k" "hist -k"; do
			for tool in rtla rtla-peer; do
				{ time \$tool timerlat \$mode \$cpus -d ${secs}s >/tmp/out 2>&1 ; } 2>/tmp/time &
				bg=\$!
				hwm=0
				while kill -0 \$bg 2>/dev/null; do
					for pid in \$(pidof \$tool); do
						h=\$(awk '/^VmHWM/ { print \$2 }' /proc/\$pid/status 2>/dev/null)
						[ -n "\$h" ] && [ "\$h" -gt "\$hwm" ] && hwm=\$h
					done
					sleep 1
				done
				wait \$bg
				c=\${cpus:-all}
				echo "COST \$tool \${c// /} \${mode%% *} \$(cat /tmp/time) \$hwm"
			done
		done
	done
done
EOS
)

# ours with the run's raw trace; both printed between markers for the host
fidelity_script=$(cat <<EOS
for mode in top hist; do
	rtla timerlat \$mode -c 0-1 -d 10s --trace-buffer-size 32768 --json-file /tmp/rec.json \
		--on-end trace,file=/tmp/raw.txt >/tmp/table.txt 2>/tmp/err.txt
	echo "== \$mode exit \$?"
	echo "== \$mode err"; cat /tmp/err.txt
	echo "== \$mode table"; cat /tmp/table.txt
	echo "== \$mode record"; cat /tmp/rec.json
	echo "== \$mode raw"; grep ' context ' /tmp/raw.txt
done
echo "== end"
EOS
)

script=
for p in $parts; do
	case $p in
	cost) script+="$cost_script"$'\n' ;;
	fidelity) script+="$fidelity_script"$'\n' ;;
	sampler) ;;	# on this machine's kernel, below
	*) echo "unknown part '$p' in PARTS (cost, fidelity, sampler)" >&2; exit 1 ;;
	esac
done
out=""
if [ -n "$script" ]; then
	out=$(tests/kernel/vm-tier.sh --rtla "$RTLA" --kernel 6.12 --cmd "$script")
fi

if grep -q '^COST' <<<"$out"; then
	echo "timerlat cost, ${secs}s runs, $runs each, alternated:"
	echo "$out" | grep '^COST' | awk -v runs="$runs" '
	# COST tool cpus mode user sys hwm_kb
	{
		k = $3 " " $4
		cpu[k, $2] += $5 + $6; rss[k, $2] = ($7 > rss[k, $2] ? $7 : rss[k, $2]); keys[k] = 1
		printf "  %-10s %-4s %-5s cpu %6.2f s  peak RSS %6d kB\n", $2, $3, $4, $5 + $6, $7
	}
	END {
		print ""
		for (k in keys)
			printf "  %-9s ours/peer CPU %.2f/%.2f s = %.3f (goal <= 0.25), peak RSS %d/%d kB (goal ours <= 8192)\n",
				k, cpu[k, "rtla"], cpu[k, "rtla-peer"],
				cpu[k, "rtla-peer"] ? cpu[k, "rtla"] / cpu[k, "rtla-peer"] : 0,
				rss[k, "rtla"], rss[k, "rtla-peer"]
	}'
fi
if grep -q '^== end' <<<"$out"; then
	echo
	echo "timerlat fidelity, 10 s on CPUs 0-1, ours against the raw trace of the same run:"
	python3 bench/timerlat/fidelity.py <<<"$out"
fi
if [[ " $parts " == *" sampler "* ]]; then
	echo
	bench/timerlat/sampler.py --rtla "$RTLA"
fi
