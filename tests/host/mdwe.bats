#!/usr/bin/env bats
# rtla mdwe on this machine's kernel: targets started here with no MDWE,
# REFUSE, REFUSE|NO_INHERIT, a W+X mapping, a seccomp filter and a zombie;
# the audit as root (BPF) and as nobody (unknown, with the reason); the
# selftest; rtla mdwe run. Every process a test starts is killed by its PID.

load ../lib/helper
bats_require_minimum_version 1.5.0

setup_file() {
	export TARGET=$BATS_FILE_TMPDIR/mdwe_target
	${CC:-cc} -O2 -Wall -pthread -o "$TARGET" "$BATS_TEST_DIRNAME/mdwe_target.c"
	chmod 755 "$BATS_FILE_TMPDIR"
}

setup() {
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	pids=()
}

teardown() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}

# start NAME CMD...: run CMD in the background until it wrote $tmp/NAME.pid; sets $pid
start() {
	local name=$1
	shift
	"$@" --ready "$tmp/$name.pid" &
	pids+=("$!")
	for _ in $(seq 300); do
		if [ -s "$tmp/$name.pid" ]; then
			pid=$(cat "$tmp/$name.pid")
			return 0
		fi
		sleep 0.01
	done
	echo "$* did not start" >&2
	return 1
}

# row PID: the raw row of PID from the audit in $tmp/audit
row() {
	awk -v p="$1" '$1 == p' "$tmp/audit"
}

needs_mdwe() {
	"$TARGET" --probe | grep -q '^PR_GET_MDWE 0$' || skip "this kernel has no MDWE"
}

@test "audit as root: exactly the targets' MDWE, W+X, seccomp and zombie state" {
	needs_root "the BPF reader needs CAP_BPF and CAP_PERFMON"
	needs_mdwe
	start none "$TARGET"; p_none=$pid
	start refuse "$TARGET" --mdwe 1; p_refuse=$pid
	start noinh "$TARGET" --mdwe 3; p_noinh=$pid
	start wx "$TARGET" --wx; p_wx=$pid
	cp "$TARGET" "$tmp/lib file"
	start wxfile "$TARGET" --wx-file "$tmp/lib file"; p_wxfile=$pid
	start wxmdwe "$TARGET" --wx --mdwe 1; p_wxmdwe=$pid
	start seccomp "$TARGET" --seccomp; p_seccomp=$pid
	# a zombie: a child that ends only once its parent is sleep, which never
	# reaps it (a child that ends first may be reaped by bash before the exec)
	bash -c '(until [ "$(cat /proc/$$/comm)" = sleep ]; do sleep 0.01; done; exec sleep 0) & exec sleep 60' &
	p_parent=$!
	pids+=("$p_parent")
	for _ in $(seq 300); do
		p_zombie=$(ps -o pid= -o stat= --ppid "$p_parent" | awk '$2 ~ /^Z/ { print $1 }')
		[ -n "$p_zombie" ] && break
		sleep 0.01
	done
	[ -n "$p_zombie" ]

	"$RTLA" mdwe --raw -n -o PID,MDWE,MDWE_FLAGS,WX,WX_BYTES,WX_PATH,SECCOMP,NNP,STATE \
		"$p_none" "$p_refuse" "$p_noinh" "$p_wx" "$p_wxfile" "$p_wxmdwe" "$p_seccomp" \
		"$p_zombie" >"$tmp/audit" 2>"$tmp/err"
	cat "$tmp/audit" "$tmp/err"
	[ ! -s "$tmp/err" ]
	[ "$(row "$p_none")" = "$p_none - 0 0 0 - disabled no S" ]
	[ "$(row "$p_refuse")" = "$p_refuse refuse-exec-gain 1 0 0 - disabled no S" ]
	[ "$(row "$p_noinh")" = "$p_noinh +no-inherit 3 0 0 - disabled no S" ]
	[ "$(row "$p_wx")" = "$p_wx - 0 1 12288 [anon] disabled no S" ]
	[ "$(row "$p_wxfile")" = "$p_wxfile - 0 1 4096 $tmp/lib\\x20file disabled no S" ]
	[ "$(row "$p_wxmdwe")" = "$p_wxmdwe refuse-exec-gain 1 1 12288 [anon] disabled no S" ]
	[ "$(row "$p_seccomp")" = "$p_seccomp - 0 0 0 - filter yes S" ]
	[ "$(row "$p_zombie")" = "$p_zombie - 0 0 0 - disabled no Z" ]

	# the default filter: under MDWE, or W+X without it; not the plain ones
	"$RTLA" mdwe --raw -n -o PID,REASON >"$tmp/audit" 2>"$tmp/err"
	[ "$(row "$p_refuse")" = "$p_refuse under\\x20MDWE" ]
	[ "$(row "$p_noinh")" = "$p_noinh under\\x20MDWE" ]
	[ "$(row "$p_wx")" = "$p_wx maps\\x20W+X\\x20without\\x20MDWE" ]
	[ "$(row "$p_wxmdwe")" = "$p_wxmdwe under\\x20MDWE,\\x20maps\\x20W+X\\x20made\\x20before" ]
	[ -z "$(row "$p_none")" ]
	[ -z "$(row "$p_seccomp")" ]
	[ -z "$(row "$p_zombie")" ]
	# and --all shows them too
	"$RTLA" mdwe --all --raw -n -o PID >"$tmp/audit"
	[ -n "$(row "$p_none")" ]
	[ -n "$(row "$p_zombie")" ]
}

@test "in a PID namespace of its own the pass reads the namespace's PIDs, not the host's" {
	needs_root "a PID namespace, the BPF reader"
	needs_mdwe
	unshare --pid --fork true 2>/dev/null || skip "cannot create a PID namespace here"
	# two targets in the namespace: one under MDWE, and a plain one whose
	# PID there is the first one's PID on the host (ns_last_pid is the
	# namespace's own): read by the host's PIDs it would look under MDWE
	unshare --pid --fork --kill-child --mount-proc sh -c '
		"$0" --mdwe 1 --ready "$1/one.pid" & one=$!
		for _ in $(seq 300); do [ -s "$1/host" ] && break; sleep 0.01; done
		echo $(($(cat "$1/host") - 1)) >/proc/sys/kernel/ns_last_pid
		"$0" --wx --ready "$1/two.pid" & two=$!
		while [ ! -s "$1/two.pid" ]; do sleep 0.01; done
		"$2" mdwe --raw -n -o PID,MDWE,WX "$(cat "$1/one.pid")" "$(cat "$1/two.pid")" \
			>"$1/audit" 2>"$1/err"
		kill $one $two' "$TARGET" "$tmp" "$RTLA" &
	pids+=("$!")
	for _ in $(seq 300); do
		[ -s "$tmp/one.pid" ] && break
		sleep 0.01
	done
	pgrep -f "$tmp/one.pid" >"$tmp/host"
	wait "${pids[-1]}"
	cat "$tmp/audit" "$tmp/err"
	[ "$(cat "$tmp/two.pid")" = "$(cat "$tmp/host")" ]
	[ "$(cat "$tmp/audit")" = "$(cat "$tmp/one.pid") refuse-exec-gain 0
$(cat "$tmp/host") - 1" ]
	[ ! -s "$tmp/err" ]
	# with the host's /proc the pass's PIDs are not its: MDWE unknown, said once
	run -0 --separate-stderr unshare --pid --fork "$RTLA" mdwe --raw -n -o PID,MDWE 1
	[ "$stderr" = "rtla mdwe: MDWE unknown: rtla's /proc is another PID namespace's: the BPF pass's PIDs are not those it lists" ]
	[ "$output" = "1 unknown" ]
}

@test "audit -J: the record holds the flags as a number and the names" {
	needs_root "the BPF reader needs CAP_BPF and CAP_PERFMON"
	needs_mdwe
	start noinh "$TARGET" --wx --mdwe 3
	run "$RTLA" mdwe -J "$pid"
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["schema"]["name"] == "rtla-mdwe", r["schema"]
p = r["processes"][0]
assert p["pid"] == '"$pid"' and p["mdwe"] == "+no-inherit" and p["mdwe_flags"] == 3, p
assert p["wx_mappings"] == 1 and p["wx_bytes"] == 12288 and p["wx_path"] == "[anon]", p
assert p["no_new_privs"] is False and p["seccomp"] == "disabled", p
'
}

@test "audit as nobody: MDWE unknown with one reason, W+X of its own processes filled" {
	needs_root "setpriv changes the user"
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	cp "$RTLA" "$tmp/rtla"
	chmod 1777 "$tmp"	# nobody's target writes its PID file here
	start mine setpriv --reuid nobody --regid nogroup --clear-groups -- "$TARGET" --wx
	p_mine=$pid
	start root "$TARGET" --wx
	p_root=$pid
	setpriv --reuid nobody --regid nogroup --clear-groups -- \
		"$tmp/rtla" mdwe --raw -n -o PID,USER,MDWE,WX,WX_BYTES,NOTE "$p_mine" "$p_root" \
		>"$tmp/audit" 2>"$tmp/err"
	status=$?
	cat "$tmp/audit" "$tmp/err"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$tmp/err")" -eq 1 ]
	grep -qx "rtla mdwe: MDWE unknown: loading BPF needs CAP_BPF and CAP_PERFMON (root): .*" "$tmp/err"
	[ "$(row "$p_mine")" = "$p_mine nobody unknown 1 12288 -" ]
	[ "$(row "$p_root")" = "$p_root root unknown - - maps:\\x20Permission\\x20denied" ]
}

@test "selftest: every check passes on this kernel, -J says so" {
	needs_mdwe
	run "$RTLA" mdwe selftest
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "CHECK "*"EXPECTED "*"OBSERVED "*RESULT ]]
	[[ ${lines[-1]} == "33 checks: 33 passed, 0 failed, 0 skipped" ]]
	grep -q '^mprotect RX to RWX  *EACCES  *EACCES  *ok$' <<<"$output"
	grep -q '^REFUSE|NO_INHERIT: exec  *-  *-  *ok$' <<<"$output"
	run "$RTLA" mdwe selftest -J
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["verdict"] == "passed" and r["failed"] == 0 and len(r["checks"]) == 33, r
c = [c for c in r["checks"] if c["check"] == "mmap anon RWX"][0]
assert c == {"check": "mmap anon RWX", "mdwe": "refuse-exec-gain", "expected": "EACCES",
             "observed": "EACCES", "result": "ok"}, c
'
}

@test "run: the command cannot map W+X, and neither can what it execs" {
	needs_mdwe
	run "$RTLA" mdwe run -- "$TARGET" --probe
	[ "$status" -eq 0 ]
	[ "$output" = "PR_GET_MDWE 1
mmap RWX EACCES" ]
	run "$RTLA" mdwe run -- sh -c 'grep NoNewPrivs /proc/self/status; exec "$0" --probe' "$TARGET"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "PR_GET_MDWE 1" ]
	[ "${lines[2]}" = "mmap RWX EACCES" ]
}

@test "run --no-inherit: the command has both flags, what it execs has none" {
	needs_mdwe
	[ "$(uname -m)" = x86_64 ] || skip "--no-inherit is x86-64 only"
	run "$RTLA" mdwe run --no-inherit -- "$TARGET" --probe
	[ "$status" -eq 0 ]
	[ "$output" = "PR_GET_MDWE 3
mmap RWX EACCES" ]
	# sh has the flags; the target it execs starts without them
	run "$RTLA" mdwe run --no-inherit -- sh -c 'exec "$0" --probe' "$TARGET"
	[ "$status" -eq 0 ]
	[ "$output" = "PR_GET_MDWE 0
mmap RWX ok" ]
}

@test "run: exit statuses of the command, and of what keeps it from running" {
	needs_mdwe
	run -7 "$RTLA" mdwe run -- sh -c 'exit 7'
	run -143 "$RTLA" mdwe run --no-inherit -- sh -c 'kill -TERM $$'
	run -127 "$RTLA" mdwe run -- /nonexistent/cmd
	[ "$status" -eq 127 ]
	[ "$output" = "rtla mdwe run: /nonexistent/cmd: No such file or directory" ]
	run -126 "$RTLA" mdwe run -- "$BATS_TEST_DIRNAME"
	run "$RTLA" mdwe run
	[ "$status" -eq 1 ]
	[ "$output" = "rtla mdwe run: no COMMAND given" ]
	# rtla already under MDWE cannot take other flags
	run "$RTLA" mdwe run -- "$RTLA" mdwe run --no-inherit -- true
	[ "$status" -eq 1 ]
	[ "$output" = "rtla mdwe run: rtla already runs under MDWE (refuse-exec-gain), which cannot change" ]
	run "$RTLA" mdwe run -- "$RTLA" mdwe selftest
	[ "$status" -eq 1 ]
	[ "$output" = "rtla mdwe selftest: rtla itself runs under MDWE (refuse-exec-gain): the checks need a process without it" ]
}

@test "--method ptrace agrees with BPF on every target, and every target lives on unchanged" {
	needs_root "both readers need root"
	needs_mdwe
	[ "$(uname -m)" = x86_64 ] || skip "--method ptrace is x86-64 only"
	mkfifo "$tmp/fifo"
	start none "$TARGET"; p_none=$pid
	start refuse "$TARGET" --mdwe 1; p_refuse=$pid
	start noinh "$TARGET" --wx --mdwe 3; p_noinh=$pid
	start seccomp "$TARGET" --seccomp --mdwe 1; p_seccomp=$pid
	start killer "$TARGET" --mdwe 3 --seccomp-kill-prctl; p_killer=$pid
	start zleader "$TARGET" --mdwe 1 --zombie-leader; p_zleader=$pid
	start reader "$TARGET" --read-fifo "$tmp/fifo" >"$tmp/reader.out"; p_reader=$pid
	start sleeper "$TARGET" --sleep-ms 2000 >"$tmp/sleeper.out"; p_sleeper=$pid
	for _ in $(seq 100); do
		[ "$(awk '{ print $3 }' "/proc/$p_zleader/stat")" = Z ] && break
		sleep 0.01
	done
	all="$p_none $p_refuse $p_noinh $p_seccomp $p_killer $p_zleader $p_reader $p_sleeper"
	# shellcheck disable=SC2086
	"$RTLA" mdwe --raw -n -o PID,MDWE_FLAGS,NOTE $all >"$tmp/bpf"
	# shellcheck disable=SC2086
	"$RTLA" mdwe --method ptrace --raw -n -o PID,MDWE_FLAGS,NOTE $all >"$tmp/ptrace" 2>"$tmp/err"
	cat "$tmp/bpf" "$tmp/ptrace" "$tmp/err"
	diff -u "$tmp/bpf" "$tmp/ptrace"
	[ ! -s "$tmp/err" ]
	[ "$(awk '{ print $2 }' "$tmp/ptrace" | tr '\n' ' ')" = "0 1 3 1 3 1 0 0 " ]
	# alive, not traced, not stopped; the reader gets its data, the sleeper its full time
	for p in $all; do
		[ "$(awk '$1 == "TracerPid:" { print $2 }' "/proc/$p/status")" = 0 ]
		[[ $(awk '{ print $3 }' "/proc/$p/stat") == [SRZ] ]]
	done
	echo hello >"$tmp/fifo"
	wait "$p_reader" "$p_sleeper"
	[ "$(cat "$tmp/reader.out")" = "read hello" ]
	[[ $(cat "$tmp/sleeper.out") =~ ^slept\ (20[0-9][0-9]|2[1-9][0-9][0-9])\ ms,\ ret\ 0$ ]]
	# the one that kills itself on prctl was asked with seccomp suspended, and lives
	kill -0 "$p_killer"
}

@test "--method ptrace refuses real-time targets without --force" {
	needs_root "chrt -f and ptrace"
	needs_mdwe
	[ "$(uname -m)" = x86_64 ] || skip "--method ptrace is x86-64 only"
	start rt chrt -f 10 "$TARGET" --mdwe 1
	run "$RTLA" mdwe --method ptrace --raw -n -o PID,MDWE,NOTE "$pid"
	[ "$status" -eq 0 ]
	[ "$output" = "$pid unknown ptrace:\\x20a\\x20SCHED_FIFO\\x20process\\x20is\\x20not\\x20stopped\\x20without\\x20--force" ]
	run "$RTLA" mdwe --method ptrace --force --raw -n -o PID,MDWE,NOTE "$pid"
	[ "$output" = "$pid refuse-exec-gain -" ]
}

@test "--method ptrace as nobody: root's processes refused in their row, its own read" {
	needs_root "setpriv changes the user"
	needs_mdwe
	[ "$(uname -m)" = x86_64 ] || skip "--method ptrace is x86-64 only"
	cp "$RTLA" "$tmp/rtla"
	chmod 1777 "$tmp"
	start mine setpriv --reuid nobody --regid nogroup --clear-groups -- "$TARGET" --mdwe 1
	p_mine=$pid
	start root "$TARGET" --mdwe 1
	p_root=$pid
	run setpriv --reuid nobody --regid nogroup --clear-groups -- \
		"$tmp/rtla" mdwe --method ptrace --raw -n -o PID,MDWE,NOTE "$p_mine" "$p_root"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$p_mine refuse-exec-gain -" ]
	[ "${lines[1]}" = "$p_root unknown ptrace:\\x20cannot\\x20attach:\\x20Operation\\x20not\\x20permitted;\\x20maps:\\x20Permission\\x20denied" ]
}
