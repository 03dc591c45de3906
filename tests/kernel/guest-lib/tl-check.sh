#!/bin/bash
# Upstream rtla's workload checks (tools/tracing/rtla/tests/scripts/check-*.sh)
# in one script, run as an --on-threshold shell action of rtla timerlat, so
# that it looks while the stopped run still holds its threads:
#   tl-check.sh priority POLICY PRIO  "Priorities are set correctly"
#   tl-check.sh cgroup                "cgroup matches for all workload PIDs"
#   tl-check.sh cpus                  "Affinity of threads: LIST..." (each thread's)
#   tl-check.sh housekeeping          "Affinity of threads: LIST" (rtla's)
#   tl-check.sh threads               "N kernel threads, M user threads"
# The workload, as upstream's get_workload_pids: the kernel's osnoise/N and
# timerlat/N threads (children of kthreadd), and every child of rtla but the
# action's shell. Diagnostics go to stderr.

# bash builtins only: a fork per process of the guest would make the action
# take seconds under TCG, while the run waits for it
ppid() {
	local k v
	while read -r k v; do
		if [ "$k" = PPid: ]; then
			echo "$v"
			return 0
		fi
	done <"/proc/$1/status"
}

comm() {
	local c
	read -r c <"/proc/$1/comm" && echo "$c"
}

# rtla is the first ancestor named rtla; the action's shell is its child on the way
shell=$$
rtla=$(ppid $$)
while [ "$rtla" -gt 1 ] && [ "$(comm "$rtla")" != rtla ]; do
	shell=$rtla
	rtla=$(ppid "$rtla")
done

kernel_pids() {
	local d
	for d in /proc/[0-9]*; do
		[ "$(ppid "${d#/proc/}" 2>/dev/null)" = 2 ] || continue
		[[ $(comm "${d#/proc/}" 2>/dev/null) =~ ^(osnoise|timerlat)/[0-9]+$ ]] && echo "${d#/proc/}"
	done
}

user_pids() {
	local d
	for d in /proc/[0-9]*; do
		[ "${d#/proc/}" != "$shell" ] || continue
		[ "$(ppid "${d#/proc/}" 2>/dev/null)" = "$rtla" ] && echo "${d#/proc/}"
	done
}

for pid in $(kernel_pids) $(user_pids); do
	echo "workload: $pid $(comm "$pid") ppid $(ppid "$pid")" \
		"$(chrt -p "$pid" | sed 's/.*: //' | xargs) cpus $(taskset -cp "$pid" | sed 's/.*: //')" >&2
done

case $1 in
priority)
	ok=1
	for pid in $(kernel_pids) $(user_pids); do
		chrt -p "$pid" | grep -q "policy: $2\$" || ok=0
		chrt -p "$pid" | grep -q "priority: $3\$" || ok=0
	done
	[ $ok = 1 ] && echo "Priorities are set correctly"
	;;
cgroup)
	for pid in $(kernel_pids) $(user_pids); do
		if [ "$(cat "/proc/$pid/cgroup")" != "$(cat "/proc/$rtla/cgroup")" ]; then
			echo "Mismatch! $pid: $(cat "/proc/$pid/cgroup"), rtla: $(cat "/proc/$rtla/cgroup")"
			exit 0
		fi
	done
	echo "cgroup matches for all workload PIDs"
	;;
cpus)
	echo -n "Affinity of threads: "
	for pid in $(kernel_pids) $(user_pids); do
		echo -n "$(taskset -cp "$pid" | sed 's/.*: //')"
	done
	echo
	;;
housekeeping)
	echo "Affinity of threads: $(taskset -cp "$rtla" | sed 's/.*: //')"
	;;
threads)
	echo "$(kernel_pids | wc -l) kernel threads, $(user_pids | wc -l) user threads"
	;;
esac
exit 0
