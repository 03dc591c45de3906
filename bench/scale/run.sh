#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How the cost grows with the work, ours beside the anchor in one run, as
# tables of ratios (the machine is shared and noisy: compare within a row).
#
#  procs    rtla capdump -a against pscap -a, rtla mdwe against the shell scan
#           of /proc/*/maps (bench/mdwe), at SIZES processes (2,000, 10,000
#           and 30,000 by default; sleepers are started up to each size):
#           median wall time of interleaved rounds and peak RSS. Goals:
#           capdump <= 0.25x pscap, mdwe <= 0.25x the scan. The floor columns:
#           cat of every /proc/PID/status against pscap, what reading them
#           costs the kernel, which no /proc reader goes below; and mdwe's
#           BPF passes alone (rtla mdwe -D) against the scan, the kernel's
#           walk of every task and mapping, which no W+X audit goes below. The static
#           columns are the ratios of the board bundle's static rtla (RTLA_STATIC,
#           build/rtla-static by default, when it exists), which maps no
#           shared libraries when it starts.
#  files    rtla capdump --files -R /usr -a: peak RSS and rows (goal <= 16 MiB),
#           against getcap -r /usr.
#  startup  what a script calling rtla in a loop pays: rtla --help and
#           rtla capdump 1 against getpcaps 1 (pscap has no way to name one
#           process).
#  sampler  peak RSS of osnoise top on the sampler backend over 1 CPU and
#           over every CPU of this machine (goal: 8 MiB + 64 KiB per CPU).
#  cpus     guests of the VM tier's 6.12 RT kernel with VCPUS vCPUs (1, 4, 16
#           and 64 by default; TCG, so SECS-second runs): the tool CPU time
#           and peak RSS of ours and the peer for osnoise top -q, hwnoise -q
#           and osnoise hist over all CPUs, and ours on the sampler backend.
#           Goals: CPU <= 0.25x the peer's at every size, RSS <= 8 MiB +
#           64 KiB per CPU.
#  duration a long run followed minute by minute: hwnoise on the sampler over
#           CPU 1 of this machine for LONG seconds (3600 by default), and on
#           the tracer over CPUs 1-7 of an 8-vCPU guest for VM_LONG seconds
#           (600): the RSS and the CPU time of rtla's own thread (the
#           sampler's spinners are the instrument, not counted) each minute,
#           the record's size, lost samples and missed events. Goals: RSS at
#           the end within 1 % of minute 1, CPU a minute flat, nothing lost.
#           LONG=0 or VM_LONG=0 leaves that half out.
#  cost     what rtla costs the CPU it measures: the noise measured on CPU 1
#           in alternated COST_SECS-second runs (10) of COST_RUNS rounds (5),
#           rtla's own thread on a housekeeping CPU (-H 0) or on the measured
#           one (-H 1); on the sampler (this machine) with the attribution
#           on and off (--unattributed), on the tracer (a 2-vCPU guest) ours
#           and the peer's. Reported as the difference of the medians, in
#           us a second and as a share of the measured noise. COST_HOST=0 or
#           COST_VM=0 leaves that half out.
#  load     gaps lost under a compile load: hwnoise on the sampler over the
#           last CPU for LOAD_SECS seconds (60), LOAD_RUNS times (3), while a
#           copy of this tree builds again and again (make -j3): the gaps
#           seen and the gaps the full ring lost (counted, not attributed: the
#           record's lost_samples, which a gate fails on). Goal: none lost.
#
#   bench/scale/run.sh [PART...]     (default: every part; RTLA: the binary)
#   SIZES="2000 10000" RUNS=10 VCPUS="1 4" SECS=5 bench/scale/run.sh procs cpus
#
# procs and sampler need root (mdwe's BPF reader, the sampler's tracefs
# instance). Every process it starts is killed by its PID.
set -eu
cd "$(dirname "$0")/../.."
rtla=$(readlink -f "${RTLA:-build/rtla}")
rtla_static=$(readlink -f "${RTLA_STATIC:-${rtla%/*}/rtla-static}")
sizes=${SIZES:-2000 10000 30000}
runs=${RUNS:-9}
vcpus=${VCPUS:-1 4 16 64}
secs=${SECS:-5}
parts=("$@")
long=${LONG:-3600}
vm_long=${VM_LONG:-600}
cost_runs=${COST_RUNS:-5}
cost_secs=${COST_SECS:-10}
load_runs=${LOAD_RUNS:-3}
load_secs=${LOAD_SECS:-60}
[ ${#parts[@]} -gt 0 ] || parts=(procs files startup sampler cpus duration cost load)
tmp=$(mktemp -d)
# shellcheck source=bench/lib.sh
. bench/lib.sh

cleanup() {
	kill_sleepers
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() { echo "scale bench: $*" >&2; exit 1; }
[ -x "$rtla" ] || die "no rtla binary at $rtla (set RTLA)"
[ -x /usr/bin/time ] || die "needs GNU time (apt-get install time)"

# median of a column of numbers on stdin
median() { sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] }'; }

# rounds NAME=CMD...: RUNS interleaved rounds (a busy spell of the machine
# hits every command alike), one warm-up first; the wall ms of each run in
# $tmp/NAME.ms and its peak RSS (kB) in $tmp/NAME.kb. A CMD runs as its
# words, without a shell around it (whose start would be counted to both
# sides), unless it has a glob for a shell to expand.
rounds() {
	local spec name t0 t1 r argv
	for name in "$@"; do rm -f "$tmp/${name%%=*}".{ms,kb}; done
	for r in $(seq 0 "$runs"); do
		for spec in "$@"; do
			name=${spec%%=*}
			argv=(bash -c "${spec#*=}")
			if [[ ${spec#*=} != *[\*\?\[]* ]]; then read -ra argv <<<"${spec#*=}"; fi
			t0=$EPOCHREALTIME
			/usr/bin/time -f '%M' -o "$tmp/rss" "${argv[@]}" >/dev/null 2>&1 || true
			t1=$EPOCHREALTIME
			((r)) || continue
			awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", (b - a) * 1000 }' >>"$tmp/$name.ms"
			cat "$tmp/rss" >>"$tmp/$name.kb"
		done
	done
}
ms() { median <"$tmp/$1.ms"; }
kb() { sort -n "$tmp/$1.kb" | tail -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }

part_procs() {
	[ "$(id -u)" -eq 0 ] || die "procs needs root (mdwe's BPF reader)"
	command -v pscap >/dev/null || die "procs needs pscap (apt-get install libcap-ng-utils)"
	cat >"$tmp/scan.sh" <<'SCAN'
grep -sH -E '^[0-9a-f]+-[0-9a-f]+ .wx' /proc/[0-9]*/maps |
	awk -F: '{ n[$1]++ } END { for (f in n) print f, n[f] }'
SCAN
	echo "processes: rtla capdump -a vs pscap -a, rtla mdwe vs the /proc/*/maps scan;"
	echo "floors: cat of every /proc/PID/status, the kernel's share of any tool that reads them;"
	echo "mdwe's BPF passes alone (-D), the kernel's walk of every task and mapping"
	echo "(median wall ms of $runs interleaved rounds; peak RSS in kB)"
	local static=() cs=- ms_=- walk
	if [ -x "$rtla_static" ]; then
		static=(capdump_s="$rtla_static capdump -a" mdwe_s="$rtla_static mdwe")
	fi
	printf '%8s | %9s %9s %6s %6s %8s %6s | %9s %9s %6s %6s %8s %6s\n' procs capdump pscap ratio static \
		"RSS kB" floor mdwe scan ratio static "RSS kB" floor
	for n in $sizes; do
		[ "$(nprocs)" -ge "$n" ] || start_sleepers $((n - $(nprocs)))
		rounds capdump="$rtla capdump -a" pscap="pscap -a" \
			floor="cat /proc/[0-9]*/status" mdwe="$rtla mdwe" scan="sh $tmp/scan.sh" "${static[@]}"
		if [ ${#static[@]} -gt 0 ]; then
			cs=$(ratio "$(ms capdump_s)" "$(ms pscap)") ms_=$(ratio "$(ms mdwe_s)" "$(ms scan)")
		fi
		# the passes' own time, as mdwe -D reports it ("iteration N ms"),
		# not a wall time: no process start, no load, no output
		for _ in $(seq "$runs"); do
			"$rtla" mdwe -D 2>&1 >/dev/null | sed -n 's/.* iteration \([0-9.]*\) ms.*/\1/p'
		done >"$tmp/walk.ms"
		walk=-
		if [ -s "$tmp/walk.ms" ]; then walk=$(ratio "$(ms walk)" "$(ms scan)"); fi
		printf '%8d | %9s %9s %6s %6s %8s %6s | %9s %9s %6s %6s %8s %6s\n' "$(nprocs)" \
			"$(ms capdump)" "$(ms pscap)" "$(ratio "$(ms capdump)" "$(ms pscap)")" "$cs" \
			"$(kb capdump)" "$(ratio "$(ms floor)" "$(ms pscap)")" \
			"$(ms mdwe)" "$(ms scan)" "$(ratio "$(ms mdwe)" "$(ms scan)")" "$ms_" "$(kb mdwe)" \
			"$walk"
	done
	echo "goals: capdump <= 0.25x pscap, mdwe <= 0.25x the scan"
	kill_sleepers
}

part_files() {
	local rows
	command -v getcap >/dev/null || die "files needs getcap (libcap2-bin)"
	rows=$("$rtla" capdump --files -R /usr -a -n -o PATH 2>/dev/null | wc -l)
	runs=3 rounds files="$rtla capdump --files -R /usr -a" getcap="getcap -r /usr"
	echo "capdump --files -R /usr -a ($rows rows): $(ms files) ms, peak RSS $(kb files) kB" \
		"(goal <= 16384 kB); getcap -r /usr $(ms getcap) ms, $(kb getcap) kB"
}

part_startup() {
	command -v getpcaps >/dev/null || die "startup needs getpcaps (libcap2-bin)"
	runs=$((runs * 5)) rounds help="$rtla --help" one="$rtla capdump 1" \
		getpcaps="getpcaps 1" true=true
	echo "start-up (median wall ms of interleaved runs, GNU time's fork and exec included: 'true' is their share):"
	printf '  %-16s %6s ms\n' "rtla --help" "$(ms help)" "rtla capdump 1" "$(ms one)" \
		"getpcaps 1" "$(ms getpcaps)" "true" "$(ms true)"
	echo "  rtla capdump 1 / getpcaps 1: $(ratio "$(ms one)" "$(ms getpcaps)")"
}

part_sampler() {
	local all
	[ "$(id -u)" -eq 0 ] || die "sampler needs root (its tracefs instance)"
	all=0-$(($(nproc) - 1))
	runs=3 rounds one="$rtla osnoise top --backend sampler -c 0 -d ${secs}s -q" \
		all="$rtla osnoise top --backend sampler -c $all -d ${secs}s -q"
	echo "sampler backend, osnoise top -d ${secs}s -q: peak RSS -c 0 $(kb one) kB," \
		"-c $all ($(nproc) CPUs) $(kb all) kB: $((($(kb all) - $(kb one)) / ($(nproc) > 1 ? $(nproc) - 1 : 1))) kB" \
		"per further CPU (goal: 8192 kB + 64 kB per CPU)"
}

# In each guest: every tool run alone, its CPU time (bash's time) and VmHWM
# read from /proc while it runs.
guest_script() {
	cat <<EOS
TIMEFORMAT='%U %S'
measure() {
	local name=\$1; shift
	{ time "\$@" >/tmp/out 2>&1 ; } 2>/tmp/time &
	local bg=\$! hwm=0 h pid
	while kill -0 \$bg 2>/dev/null; do
		for pid in \$(pidof rtla rtla-peer); do
			h=\$(awk '/^VmHWM/ { print \$2 }' /proc/\$pid/status 2>/dev/null)
			[ -n "\$h" ] && [ "\$h" -gt "\$hwm" ] && hwm=\$h
		done
		sleep 0.2
	done
	wait \$bg || true
	echo "SCALE \$name \$(cat /tmp/time) \$hwm"
}
# the first tracer run of a boot pays for the kernel's first set-up: not measured
rtla osnoise top -q -d 1s >/dev/null 2>&1 || true
rtla-peer osnoise top -q -d 1s >/dev/null 2>&1 || true
for tool in rtla rtla-peer; do
	measure "\$tool:top" \$tool osnoise top -q -d ${secs}s
	measure "\$tool:hwnoise" \$tool hwnoise -q -d ${secs}s
	measure "\$tool:hist" \$tool osnoise hist -d ${secs}s
done
measure rtla:sampler rtla osnoise top --backend sampler -q -d ${secs}s
EOS
}

part_cpus() {
	echo "CPUs: tool CPU time (user + system, s) and peak RSS (kB) over all vCPUs, ${secs} s runs"
	printf '%5s %-8s | %7s %7s %6s | %8s %8s\n' vCPUs tool ours peer ratio "ours kB" "peer kB"
	for n in $vcpus; do
		RTLA_VM_SMP=$n tests/kernel/vm-tier.sh --rtla "$rtla" --kernel 6.12 \
			--cmd "$(guest_script)" >"$tmp/vm.out" 2>&1 || {
			tail -5 "$tmp/vm.out" >&2
			die "the $n-vCPU guest failed"
		}
		for t in top hwnoise hist; do
			awk -v n="$n" -v t="$t" '
			$1 == "SCALE" && $2 == "rtla:" t { o = $3 + $4; ok = $5 }
			$1 == "SCALE" && $2 == "rtla-peer:" t { p = $3 + $4; pk = $5 }
			END { printf "%5d %-8s | %7.2f %7.2f %6.2f | %8d %8d\n", n, t, o, p, p ? o / p : 0, ok, pk }
			' "$tmp/vm.out"
		done
		awk -v n="$n" '$1 == "SCALE" && $2 == "rtla:sampler" {
			printf "%5d %-8s | %7.2f %7s %6s | %8d %8s\n", n, "sampler", $3 + $4, "-", "-", $5, "-" }' \
			"$tmp/vm.out"
	done
	echo "goals: ours <= 0.25x the peer's CPU at every size; RSS <= 8192 kB + 64 kB per vCPU"
}

# follow PID STEP: every STEP seconds until PID ends, "FOLLOW t rss_kB
# cpu_s": its RSS and the CPU time of its main thread (the driver: what the
# tool itself spends; a sampler's spinners are threads of their own)
follow() {
	local pid=$1 step=$2 t=0 hz rss cpu
	hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
	while sleep "$step" && t=$((t + step)) &&
		rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null) &&
		cpu=$(awk -v hz="$hz" '{ sub(/^.*\) /, ""); print ($12 + $13) / hz }' \
			"/proc/$pid/task/$pid/stat" 2>/dev/null); do
		[ -n "$rss" ] && echo "FOLLOW $t $rss $cpu"
	done
}

# the FOLLOW lines of $1 and the record $2 as the minute table and verdicts
follow_table() {
	awk '$1 == "FOLLOW" {
		n++; t[n] = $2; rss[n] = $3; cpu[n] = $4 - last; last = $4
		if (n == 1 || cpu[n] < lo) lo = cpu[n]
		if (n == 1 || cpu[n] > hi) hi = cpu[n]
	}
	END {
		printf "  %6s %9s %11s\n", "minute", "RSS kB", "CPU s/min"
		for (i = 1; i <= n; i++)
			if (i <= 3 || i > n - 2 || i % 10 == 0)
				printf "  %6d %9d %11.3f\n", t[i] / 60, rss[i], cpu[i]
		if (n > 1)
			printf "  RSS minute 1 -> end: %d -> %d kB (%+.2f %%, goal within 1 %%); " \
				"CPU a minute %.3f..%.3f s\n", rss[1], rss[n], \
				100 * (rss[n] - rss[1]) / rss[1], lo, hi
	}' "$1"
	printf '  record: %s bytes, lost_samples %s, missed_events %s\n' "$(wc -c <"$2")" \
		"$(grep -o '"lost_samples": *[0-9]*' "$2" | grep -o '[0-9]*$')" \
		"$(grep -o '"missed_events": *[0-9]*' "$2" | grep -o '[0-9]*$')"
}

part_duration() {
	[ "$(id -u)" -eq 0 ] || die "duration needs root (the sampler's tracefs instance)"
	[ "$(nproc)" -ge 2 ] || die "duration needs two CPUs (CPU 1 measured)"
	[ "$long" -eq 0 ] || duration_sampler
	[ "$vm_long" -eq 0 ] || duration_tracer
}

duration_sampler() {
	local pid
	echo "duration: rtla hwnoise --backend sampler -c 1 -d ${long}s, followed each minute"
	"$rtla" hwnoise --backend sampler -c 1 -d "${long}s" -q --json-file "$tmp/long.json" \
		>/dev/null 2>"$tmp/long.err" &
	pid=$!
	follow "$pid" 60 >"$tmp/long.follow"
	wait "$pid" || die "the long sampler run failed: $(head -3 "$tmp/long.err")"
	follow_table "$tmp/long.follow" "$tmp/long.json"
	sed 's/^/  stderr: /' "$tmp/long.err"
}

duration_tracer() {
	echo "duration: rtla hwnoise -c 1-7 -d ${vm_long}s on the tracer, an 8-vCPU guest"
	RTLA_VM_SMP=8 RTLA_VM_TIMEOUT=$((vm_long + 600)) tests/kernel/vm-tier.sh --rtla "$rtla" \
		--kernel 6.12 --cmd "$(declare -f follow)
rtla hwnoise -c 1-7 -d ${vm_long}s -q --json-file /tmp/long.json >/dev/null 2>/tmp/long.err &
follow \$! 60
wait \$! || echo 'FAILED'; cat /tmp/long.err
echo RECORD \$(cat /tmp/long.json)" >"$tmp/vm.out" 2>&1 || {
		tail -5 "$tmp/vm.out" >&2
		die "the 8-vCPU guest failed"
	}
	sed -n 's/.*\(RECORD \)//p' "$tmp/vm.out" >"$tmp/vm-long.json"
	follow_table "$tmp/vm.out" "$tmp/vm-long.json"
}

# the noise of CPU 1 (us) and its runtime (us) in an osnoise text table on stdin
noise_of_cpu1() { awk '$1 == "1" && $2 ~ /^#/ { print $4, $3; exit }'; }

# the medians of the noise a second (us/s) of each configuration's runs
cost_report() {
	local base=$1 name; shift
	for name in "$base" "$@"; do
		awk '{ printf "%.3f\n", $1 / ($2 / 1e6) }' "$tmp/cost-$name" | median >"$tmp/med-$name"
	done
	printf '  %-34s %9s us/s\n' "$base" "$(cat "$tmp/med-$base")"
	for name in "$@"; do
		printf '  %-34s %9s us/s: %+.3f us/s (%+.1f %% of the measured noise)\n' "$name" \
			"$(cat "$tmp/med-$name")" \
			"$(awk -v a="$(cat "$tmp/med-$name")" -v b="$(cat "$tmp/med-$base")" 'BEGIN { print a - b }')" \
			"$(awk -v a="$(cat "$tmp/med-$name")" -v b="$(cat "$tmp/med-$base")" 'BEGIN { print b ? 100 * (a - b) / b : 0 }')"
	done
}

part_cost() {
	[ "$(id -u)" -eq 0 ] || die "cost needs root (the sampler's tracefs instance)"
	[ "$(nproc)" -ge 2 ] || die "cost needs two CPUs (CPU 1 measured, CPU 0 housekeeping)"
	echo "cost: noise measured on CPU 1, medians of $cost_runs alternated ${cost_secs}-s runs"
	[ "${COST_HOST:-1}" -eq 0 ] || cost_sampler
	[ "${COST_VM:-1}" -eq 0 ] || cost_tracer
}

cost_sampler() {
	local r spec
	echo " sampler backend (this machine):"
	rm -f "$tmp"/cost-*
	for r in $(seq "$cost_runs"); do
		for spec in "rtla on CPU 0 (-H 0)=-H 0" "rtla on the measured CPU (-H 1)=-H 1" \
			"attribution off (--unattributed)=-H 0 --unattributed"; do
			# shellcheck disable=SC2086
			"$rtla" osnoise top --backend sampler -c 1 ${spec#*=} -d "${cost_secs}s" -q \
				2>/dev/null | noise_of_cpu1 >>"$tmp/cost-${spec%%=*}"
		done
	done
	cost_report "rtla on CPU 0 (-H 0)" "rtla on the measured CPU (-H 1)" \
		"attribution off (--unattributed)"
}

cost_tracer() {
	local tool h
	echo " tracer (a 2-vCPU guest of the 6.12 RT kernel):"
	RTLA_VM_SMP=2 tests/kernel/vm-tier.sh --rtla "$rtla" --kernel 6.12 --cmd "
rtla osnoise top -q -d 1s >/dev/null 2>&1; rtla-peer osnoise top -q -d 1s >/dev/null 2>&1
for r in \$(seq $cost_runs); do
	for tool in rtla rtla-peer; do
		for h in 0 1; do
			\$tool osnoise top -c 1 -H \$h -q -d ${cost_secs}s 2>/dev/null |
				awk -v n=\"\$tool-\$h\" '\$1 == \"1\" && \$2 ~ /^#/ { print \"COST\", n, \$4, \$3; exit }'
		done
	done
done" >"$tmp/vm.out" 2>&1 || {
		tail -5 "$tmp/vm.out" >&2
		die "the 2-vCPU guest failed"
	}
	for tool in rtla rtla-peer; do
		for h in 0 1; do
			awk -v n="$tool-$h" '$1 == "COST" && $2 == n { print $3, $4 }' "$tmp/vm.out" \
				>"$tmp/cost-$tool on CPU $h"
		done
		cost_report "$tool on CPU 0" "$tool on CPU 1"
	done
}

part_load() {
	[ "$(id -u)" -eq 0 ] || die "load needs root (the sampler's tracefs instance)"
	local last builder r lost
	last=$(($(getconf _NPROCESSORS_ONLN) - 1))
	mkdir "$tmp/src"
	git archive HEAD | tar -x -C "$tmp/src"
	(while :; do
		make -s -C "$tmp/src" clean >/dev/null 2>&1
		make -s -C "$tmp/src" -j3 >/dev/null 2>&1
	done) &
	builder=$!
	sleepers+=("$builder")
	echo "load: hwnoise --backend sampler -c $last -d ${load_secs}s while this tree builds (make -j3)"
	printf '  %5s %10s %8s\n' run gaps lost
	for r in $(seq "$load_runs"); do
		"$rtla" hwnoise --backend sampler -c "$last" -d "${load_secs}s" -q -D \
			--json-file "$tmp/load.json" >/dev/null 2>"$tmp/load.err" || die "the load run failed"
		lost=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["lost_samples"])' \
			"$tmp/load.json")
		printf '  %5s %10s %8s\n' "$r" \
			"$(sed -n 's/.*cpu [0-9]*: \([0-9]*\) gaps.*/\1/p' "$tmp/load.err")" "$lost"
	done
	kill "$builder" 2>/dev/null || true
	echo "goal: no gap lost"
}

for p in "${parts[@]}"; do
	case $p in
	procs | files | startup | sampler | cpus | duration | cost | load) echo "== scale: $p"; "part_$p" ;;
	*) die "unknown part '$p' (procs, files, startup, sampler, cpus, duration, cost, load)" ;;
	esac
done
