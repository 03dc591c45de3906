# The cases of upstream rtla's own osnoise test list (tools/tracing/rtla/tests,
# 7.x era), run against ours on 6.12: the same command lines, exit statuses and
# output patterns. Where ours differs on purpose the case says so and checks
# ours: help exits 0 (upstream 7.x: 129), and an error line carries the
# command's prefix ("rtla osnoise: ..."), so upstream's ^...$ becomes ...$.
# "TOOL" cases run as "top -q" and as "hist", as upstream's list does.

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

# expect STATUS PATTERN [ABSENT] -- ARGS...: rtla ARGS exits STATUS, some line
# of its output matches the ERE PATTERN ("" = any) and none matches ABSENT
expect() {
	local want=$1 pattern=$2 absent="" status=0
	shift 2
	[ "$1" = -- ] || { absent=$1; shift; }
	shift
	timeout -k 15 120 "$RTLA" "$@" >out.txt 2>&1 || status=$?
	echo "# rtla $*: status $status"
	cat out.txt
	[ "$status" -eq "$want" ]
	[ -z "$pattern" ] || grep -Eq "$pattern" out.txt
	[ -z "$absent" ] || ! grep -Eq "$absent" out.txt
}

# each TOOL case twice: top -q, then hist (which has no -q)
top_q_hist() {
	local want=$1 pattern=$2 absent=$3
	shift 3
	expect "$want" "$pattern" "$absent" -- osnoise top -q "$@"
	rm -f a
	expect "$want" "$pattern" "$absent" -- osnoise hist "$@"
}

@test "help pages: osnoise --help names the version, top and hist --help the tool" {
	expect 0 "osnoise version" -- osnoise --help
	expect 0 "rtla osnoise" -- osnoise top --help
	expect 0 "rtla osnoise" -- osnoise hist --help
}

@test "-s 30 -T 1 stops with 'osnoise hit stop tracing'; -t saves osnoise_trace.txt" {
	top_q_hist 2 "osnoise hit stop tracing" "" -s 30 -T 1
	top_q_hist 2 "Saving trace to osnoise_trace.txt" "" -s 30 -T 1 -t
}

@test "threads: -P F:1, -C, -c 0 and -H 0, checked from an --on-threshold action" {
	# the osnoise/N kernel threads, as an action sees them while the run is stopped
	cat >check.sh <<-'EOF'
	#!/bin/bash
	what=$1 ok=1 rtla=$(pgrep -x rtla | head -1)
	for pid in $(pgrep '^osnoise/'); do
		case $what in
		prio) chrt -p "$pid" | grep -q 'SCHED_FIFO' && chrt -p "$pid" | grep -q 'priority: 1$' || ok=0 ;;
		cgroup) [ "$(cat /proc/$pid/cgroup)" = "$(cat /proc/$rtla/cgroup)" ] || ok=0 ;;
		cpus) a=$(taskset -p "$pid" | sed 's/.*: //'); [ "$a" = 1 ] || ok=0 ;;
		esac
	done
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

@test "hist options: -b 1, -E 10, -E 1 refused, --no-header, --with-zeros, --no-index, --no-summary" {
	expect 0 "" -- osnoise hist -b 1 -d 1s
	expect 0 "" -- osnoise hist -E 10 -d 1s
	expect 1 "Entries must be > 10 and < [0-9]+$" -- osnoise hist -E 1 -d 1s
	expect 0 "" "RTLA osnoise histogram" -- osnoise hist --no-header -d 1s
	expect 0 '^2000000\s+0\s+' -- osnoise hist --with-zeros -b 100000 -E 21 -d 1s
	expect 0 "" "^count:" -- osnoise hist --no-index --with-zeros -d 1s
	expect 0 "" "^count:" -- osnoise hist --no-summary -d 1s
}

@test "the default period is applied over an absurd one left in the kernel" {
	echo 600000000 >/sys/kernel/tracing/osnoise/period_us
	expect 2 "" -- osnoise hist -s 1
	[ "$(cat /sys/kernel/tracing/osnoise/period_us)" = 600000000 ]
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

@test "--on-end trace saves the trace at the end" {
	expect 0 "^  Saving trace to osnoise_trace.txt$" -- osnoise top -d 1s --on-end trace
	expect 0 "^  Saving trace to osnoise_trace.txt$" -- osnoise hist -d 1s --on-end trace
}
