# The thread and action cases of upstream rtla's own osnoise test list
# 7.x era), run against ours on 6.12: the same command lines, exit statuses and
# output patterns. Where ours differs on purpose the case says so and checks
# ours: help exits 0 (upstream 7.x: 129), and an error line carries the
# command's prefix ("rtla osnoise: ..."), so upstream's ^...$ becomes ...$.
# "TOOL" cases run as "top -q" and as "hist", as upstream's list does.

load /vm/lib/noise
load /vm/lib/upstream

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

@test "threads: -P F:1, -C, -c 0 and -H 0, checked from an --on-threshold action" {
	# the osnoise/N kernel threads, as an action sees them while the run is stopped
	cat >check.sh <<-'EOF'
	#!/bin/bash
	# the processes whose comm matches the glob $1
	pids() {
		local d c
		for d in /proc/[0-9]*; do
			read -r c <"$d/comm" 2>/dev/null || continue
			[[ $c == $1 ]] && echo "${d#/proc/}"
		done
	}
	what=$1 ok=1 n=0 rtla=$(pids rtla | head -1)
	for pid in $(pids 'osnoise/*'); do
		n=$((n + 1))
		case $what in
		prio) chrt -p "$pid" | grep -q 'SCHED_FIFO' && chrt -p "$pid" | grep -q 'priority: 1$' || ok=0 ;;
		cgroup) [ "$(cat /proc/$pid/cgroup)" = "$(cat /proc/$rtla/cgroup)" ] || ok=0 ;;
		cpus) a=$(taskset -p "$pid" | sed 's/.*: //'); [ "$a" = 1 ] || ok=0 ;;
		esac
	done
	[ $n -gt 0 ] || { echo "no osnoise/ threads"; exit 0; }
	case $what in
	prio) [ $ok = 1 ] && echo "Priorities are set correctly" ;;
	cgroup) [ $ok = 1 ] && echo "cgroup matches for all workload PIDs" ;;
	cpus) [ $ok = 1 ] && echo "Affinity of threads: 0" ;;
	hk) echo "Affinity of threads: $(taskset -cp "$rtla" | sed 's/.*: //')" ;;
	esac
	EOF
	chmod +x check.sh
	top_q_hist 2 "Priorities are set correctly" "" -P F:1 -c 0 -r 900000 -d 10s -S 1 \
		--on-threshold shell,command="./check.sh prio"
	top_q_hist 2 "cgroup matches for all workload PIDs" "" -C -c 0 -r 900000 -d 10s -S 1 \
		--on-threshold shell,command="./check.sh cgroup"
	top_q_hist 2 "^Affinity of threads: 0$" "" -P F:1 -c 0 -r 900000 -d 10s -S 1 \
		--on-threshold shell,command="./check.sh cpus"
	top_q_hist 2 "^Affinity of threads: 0$" "" -P F:1 -H 0 -r 900000 -d 10s -S 1 \
		--on-threshold shell,command="./check.sh hk"
}

@test "actions: -t FILE, trace, trace,file=, shell, several in a row" {
	top_q_hist 2 "^  Saving trace to custom_filename.txt$" "" -S 2 -t custom_filename.txt
	top_q_hist 2 "^  Saving trace to osnoise_trace.txt$" "" -S 2 --on-threshold trace
	top_q_hist 2 "^  Saving trace to custom_filename.txt$" "" -S 2 \
		--on-threshold trace,file=custom_filename.txt
	top_q_hist 2 "^TestOutput$" "" -S 2 --on-threshold shell,command='echo TestOutput'
	top_q_hist 2 "^12$" "" -S 2 --on-threshold shell,command='echo -n 1' \
		--on-threshold shell,command='echo 2'
}

@test "actions: a failing action ends the chain; continue; a conditional continue" {
	expect 2 "^1# RTLA osnoise histogram$" -- osnoise hist -S 2 \
		--on-threshold shell,command='echo -n 1; false' --on-threshold shell,command='echo -n 2'
	expect 2 "^abc" "defgh" -- osnoise top -S 2 \
		--on-threshold shell,command='echo -n abc; false' --on-threshold shell,command='echo -n defgh'
	top_q_hist 0 "^TestOutput$" "" -S 2 -d 5s --on-threshold shell,command='echo TestOutput' \
		--on-threshold continue
	top_q_hist 2 "^12$" "^2$" -S 2 --on-threshold \
		shell,command='if [ -f a ]; then echo 2; exit 1; else echo -n 1; touch a; fi' \
		--on-threshold continue
}
