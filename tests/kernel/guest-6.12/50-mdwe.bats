# rtla mdwe on 6.12, whose mm->flags is a plain unsigned long (6.18 on the
# build machine has mm_flags_t): the same BPF object must read both. The
# selftest on a second kernel, and the audit of targets started here.

setup() {
	pids=()
}

# children PID: the PIDs whose parent is PID (busybox has no pgrep); a
# process that exits between the glob and awk's read is no error
children() {
	awk -v p="$1" '$4 == p { print $1 }' /proc/[0-9]*/stat 2>/dev/null || true
}

teardown() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
}

@test "selftest: every check passes on 6.12" {
	run "$RTLA" mdwe selftest
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "33 checks: 33 passed, 0 failed, 0 skipped" ]
}

@test "audit: none, REFUSE, REFUSE|NO_INHERIT and a zombie read right through BPF and ptrace" {
	sleep 60 &
	p_none=$!
	"$RTLA" mdwe run -- sleep 61 &
	p_refuse=$!
	"$RTLA" mdwe run --no-inherit -- sleep 62 &
	p_rtla=$!
	# a zombie: a child that ends only once its parent is sleep, which never
	# reaps it (a child that ends first may be reaped by bash before the exec)
	bash -c '(until [ "$(cat /proc/$$/comm)" = sleep ]; do sleep 0.01; done; exec sleep 0) & exec sleep 63' &
	p_parent=$!
	pids+=("$p_none" "$p_refuse" "$p_rtla" "$p_parent")
	for _ in $(seq 300); do
		p_noinh=$(children "$p_rtla")
		p_zombie=$(children "$p_parent")
		[ -n "$p_noinh" ] && [ "$(cat /proc/$p_noinh/comm)" = sleep ] &&
			[ -n "$p_zombie" ] && [ "$(awk '{ print $3 }' /proc/$p_zombie/stat)" = Z ] &&
			[ "$(cat /proc/$p_refuse/comm)" = sleep ] && break
		sleep 0.05
	done
	pids+=("$p_noinh")
	run "$RTLA" mdwe --raw -n -o PID,COMMAND,STATE,MDWE,MDWE_FLAGS,WX \
		"$p_none" "$p_refuse" "$p_noinh" "$p_zombie" 1
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$p_none sleep S - 0 0" ]
	[ "${lines[1]}" = "$p_refuse sleep S refuse-exec-gain 1 0" ]
	[ "${lines[2]}" = "$p_noinh sleep S +no-inherit 3 0" ]
	[ "${lines[3]}" = "$p_zombie sleep Z - 0 0" ]
	[[ ${lines[4]} == "1 "*" - 0 0" ]]
	# the default filter shows the two under MDWE, and nothing on stderr
	"$RTLA" mdwe --raw -n -o PID,MDWE >/tmp/audit 2>/tmp/err
	cat /tmp/audit /tmp/err
	grep -qx "$p_refuse refuse-exec-gain" /tmp/audit
	grep -qx "$p_noinh +no-inherit" /tmp/audit
	! grep -q "^$p_none " /tmp/audit || false
	[ ! -s /tmp/err ]
	# the ptrace reader agrees, and the sleepers sleep on
	"$RTLA" mdwe --raw -n -o PID,MDWE_FLAGS "$p_none" "$p_refuse" "$p_noinh" >/tmp/bpf
	"$RTLA" mdwe --method ptrace --raw -n -o PID,MDWE_FLAGS "$p_none" "$p_refuse" "$p_noinh" \
		>/tmp/ptrace 2>/tmp/err
	cat /tmp/bpf /tmp/ptrace /tmp/err
	diff /tmp/bpf /tmp/ptrace
	[ ! -s /tmp/err ]
	for p in "$p_none" "$p_refuse" "$p_noinh"; do
		[ "$(awk '{ print $3 }' "/proc/$p/stat")" = S ]
	done
}
