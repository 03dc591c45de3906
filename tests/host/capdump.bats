#!/usr/bin/env bats
# rtla capdump on this machine's kernel: processes started with chosen sets,
# files given capabilities with setcap, capget against /proc, and a scan
# while a thousand processes come and go. Needs root; every process a test
# starts is killed by its PID in teardown.

load ../lib/helper
bats_require_minimum_version 1.5.0

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

# start CMD...: run it in the background until it has exec'd "sleep"; sets $pid
start() {
	"$@" &
	pid=$!
	pids+=("$pid")
	for _ in $(seq 200); do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "${want_comm:-sleep}" ] && return 0
		sleep 0.01
	done
	echo "$* did not start" >&2
	return 1
}

# status_set PID Cap...: the value /proc shows
status_set() {
	awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"
}

@test "a root child with a reduced bounding set and an ambient set shows exactly those" {
	needs_root "setpriv changes the bounding and ambient sets"
	start setpriv --bounding-set -all,+net_raw,+net_bind_service,+bpf \
		--inh-caps +net_raw,+bpf --ambient-caps +net_raw,+bpf -- sleep 60
	run "$RTLA" capdump --raw -n -o USER,CAPINH,CAPPRM,CAPEFF,CAPBND,CAPAMB "$pid"
	[ "$status" -eq 0 ]
	[ "$output" = "root 0000008000002000 0000008000002400 0000008000002400 0000008000002400 0000008000002000" ]
	run "$RTLA" capdump --raw -n --names -o BND_NAMES,AMB_NAMES "$pid"
	[ "$output" = "cap_net_bind_service,cap_net_raw,cap_bpf cap_net_raw,cap_bpf" ]
	# and the default scan shows it, without a word on stderr
	"$RTLA" capdump --raw -n -o PID,REASON > "$tmp/out" 2> "$tmp/err"
	grep -qx "$pid root\\\\x20with\\\\x20an\\\\x20ambient\\\\x20set" "$tmp/out" || { cat "$tmp/out"; false; }
	[ ! -s "$tmp/err" ] || { cat "$tmp/err"; false; }
}

@test "a non-root child with an ambient capability shows it, as /proc does" {
	needs_root "setpriv changes the UID and the ambient set"
	start setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps +net_raw --ambient-caps +net_raw -- sleep 60
	run "$RTLA" capdump --raw -n -o PID,USER,CAPINH,CAPPRM,CAPEFF,CAPBND,CAPAMB,NNP,SECCOMP
	[ "$status" -eq 0 ]
	[[ "$output" == *"$pid nobody 0000000000002000 0000000000002000 0000000000002000 $(status_set "$pid" CapBnd) 0000000000002000 no disabled"* ]]
}

@test "no_new_privs set with setpriv is shown" {
	needs_root "setpriv runs the child as another user"
	start setpriv --no-new-privs --reuid=65534 --regid=65534 --clear-groups -- sleep 60
	run "$RTLA" capdump --raw -n -o NNP,SECCOMP,CAPEFF "$pid"
	[ "$output" = "yes disabled 0000000000000000" ]
}

# proc_caps FILE: every process in /proc now, one "PID START CapInh CapPrm
# CapEff CapBnd CapAmb" a line (START, the start time, tells a reused PID)
proc_caps() {
	python3 - "$1" <<-'EOF'
		import os, sys
		with open(sys.argv[1], "w") as out:
		    for pid in filter(str.isdigit, os.listdir("/proc")):
		        try:
		            stat = open("/proc/%s/stat" % pid).read()
		            status = open("/proc/%s/status" % pid).read()
		        except OSError:
		            continue  # gone meanwhile
		        start = stat[stat.rindex(")") + 2:].split()[19]
		        caps = dict(l.split(":\t", 1) for l in status.splitlines() if l.startswith("Cap"))
		        print(pid, start, *(caps[k] for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")),
		              file=out)
	EOF
}

@test "the live values agree with /proc for every process, and none needs capget" {
	proc_caps "$tmp/before"
	"$RTLA" capdump -a --raw -o PID,CAPINH,CAPPRM,CAPEFF,CAPBND,CAPAMB,NOTE > "$tmp/out" 2> "$tmp/err"
	proc_caps "$tmp/after"
	[ ! -s "$tmp/err" ] || { cat "$tmp/err"; false; }
	! grep -q 'from\\x20capget' "$tmp/out" || false
	# every process there before and after the scan, the same (start time and
	# sets) both times, is in rtla's table with exactly /proc's five sets
	python3 - "$tmp/before" "$tmp/out" "$tmp/after" <<-'EOF'
		import sys
		snap = lambda path: {l.split()[0]: l.split()[1:] for l in open(path)}
		before, after = snap(sys.argv[1]), snap(sys.argv[3])
		lines = open(sys.argv[2]).read().splitlines()
		assert lines[0] == "PID CAPINH CAPPRM CAPEFF CAPBND CAPAMB NOTE", lines[0]
		rtla = {}
		for l in lines[1:]:
		    f = l.split(" ")
		    assert len(f) == 7 and f[0] not in rtla, l
		    rtla[f[0]] = f[1:6]
		stable = [p for p in before if after.get(p) == before[p]]
		missing = [p for p in stable if p not in rtla]
		assert not missing, "processes /proc shows before and after, not in rtla's table: %s" % missing
		wrong = ["PID %s: rtla %s, /proc %s" % (p, rtla[p], before[p][1:]) for p in stable
		         if rtla[p] != before[p][1:]]
		assert not wrong, "\n".join(["sets that differ from /proc/PID/status:"] + wrong)
		assert "1" in stable and len(stable) >= 10, stable
		print("%d processes compared, %d in rtla's table" % (len(stable), len(rtla)))
	EOF
}

# bpf_targets: two processes whose every field differs from the usual: a
# nobody child with chosen sets and no_new_privs, and a root one with an
# empty effective set (its permitted one full), in strict seccomp, whose
# task name holds a backslash and a newline; their PIDs in $targets
bpf_targets() {
	start setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs \
		--bounding-set -all,+net_raw,+bpf,+sys_nice --inh-caps +net_raw,+bpf \
		--ambient-caps +net_raw,+bpf -- sleep 60
	targets=$pid
	mkfifo "$tmp/fifo"
	python3 - "$tmp/fifo" <<-'EOF2' &
		import ctypes, os, sys
		fd = os.open(sys.argv[1], os.O_RDONLY)
		open("/proc/self/comm", "w").write("se\\cc\nomp")
		libc = ctypes.CDLL(None, use_errno=True)
		hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)	# _LINUX_CAPABILITY_VERSION_3
		data = (ctypes.c_uint32 * 6)()	# effective, permitted, inheritable; twice
		assert libc.capget(hdr, data) == 0
		data[0] = data[3] = 0
		assert libc.capset(hdr, data) == 0
		libc.prctl(22, 1, 0, 0, 0)	# PR_SET_SECCOMP, strict
		os.read(fd, 1)
	EOF2
	pids+=($!)
	exec 7>"$tmp/fifo"
	for _ in $(seq 200); do
		grep -q '^Seccomp:[[:space:]]*1' "/proc/$!/status" && break
		sleep 0.01
	done
	targets+=" $!"
}

@test "--method bpf and --method proc agree: parent, UID, name, five sets, no_new_privs, seccomp" {
	needs_root "the BPF reader, setpriv"
	bpf_targets
	cols=PID,PPID,UID,COMMAND,CAPINH,CAPPRM,CAPEFF,CAPBND,CAPAMB,NNP,SECCOMP
	"$RTLA" capdump -a --raw -o "$cols" --method proc >"$tmp/proc" 2>"$tmp/err"
	"$RTLA" capdump -a --raw -o "$cols" --method bpf -D >"$tmp/bpf" 2>>"$tmp/err"
	"$RTLA" capdump -a --raw -o "$cols" --method proc >"$tmp/proc2" 2>>"$tmp/err"
	cat "$tmp/err"
	grep -Eq '^rtla capdump: debug: BPF: load [0-9.]+ ms, iteration [0-9.]+ ms, [0-9]+ processes$' "$tmp/err"
	[ "$(grep -vc 'debug: BPF' "$tmp/err")" -eq 0 ]
	for t in $targets; do
		grep "^$t " "$tmp/bpf"
		[ "$(grep "^$t " "$tmp/bpf")" = "$(grep "^$t " "$tmp/proc")" ]
	done
	[ "$(grep "^${targets% *} " "$tmp/bpf" | cut -d' ' -f3-)" = "65534 sleep 0000008000002000 0000008000002000 0000008000002000 0000008000802000 0000008000002000 yes disabled" ]
	[ "$(grep "^${targets#* } " "$tmp/bpf" | cut -d' ' -f4,7,11)" = 'se\x5c\x5ccc\x5cnomp 0000000000000000 strict' ]
	[ "$(grep "^${targets#* } " "$tmp/bpf" | cut -d' ' -f6)" = "$(status_set "${targets#* }" CapPrm)" ]
	exec 7>&-
	python3 "$BATS_TEST_DIRNAME/../kernel/guest-lib/capdump-agree.py" "$tmp/proc" "$tmp/bpf" "$tmp/proc2"
}

@test "--method: named PIDs and the STATE column read /proc; bad values, --files, --sysroot and a user are one line" {
	run -0 --separate-stderr "$RTLA" capdump -D -o PID,STATE -a
	[ "$stderr" = "rtla capdump: debug: BPF: the STATE column needs /proc: reading /proc" ]
	run -0 --separate-stderr "$RTLA" capdump -D 1
	[ -z "$stderr" ]
	run -1 --separate-stderr "$RTLA" capdump --method sys
	[ "$stderr" = "rtla capdump: --method: not bpf or proc: sys" ] || { echo "$stderr"; false; }
	[ -z "$output" ]
	run -1 --separate-stderr "$RTLA" capdump --files --method proc /bin
	[[ "$stderr" == "rtla capdump: --method applies to processes, not --files"* ]]
	run -1 --separate-stderr "$RTLA" --sysroot "$tmp" capdump --method bpf
	[ "$stderr" = "rtla capdump: --sysroot $tmp: --method bpf needs the live system" ]
	needs_root "a PID namespace, setpriv runs rtla as nobody"
	# a PID namespace of its own with the host's /proc: the pass's PIDs are not /proc's
	run -1 --separate-stderr unshare --pid --fork "$RTLA" capdump --method bpf
	[ "$stderr" = "rtla capdump: --method bpf: rtla's /proc is another PID namespace's: the BPF pass's PIDs are not those it lists" ]
	[ -z "$output" ]
	run -0 --separate-stderr unshare --pid --fork "$RTLA" capdump -a -D --raw -n -o PID
	[[ "$stderr" == "rtla capdump: debug: BPF: rtla's /proc is another PID namespace's: the BPF pass's PIDs are not those it lists: reading /proc"* ]]
	run -1 --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$RTLA" capdump --method bpf
	[ "$stderr" = "rtla capdump: --method bpf: loading BPF needs CAP_BPF and CAP_PERFMON (root): Operation not permitted" ]
	[ -z "$output" ]
	# without --method a user gets /proc's table, as before
	setpriv --reuid=65534 --regid=65534 --clear-groups "$RTLA" capdump -a --raw -o PID,CAPEFF >"$tmp/user"
	"$RTLA" capdump -a --raw -o PID,CAPEFF --method proc >"$tmp/root"
	grep -E "^(2|$$) " "$tmp/user" >"$tmp/user2"
	grep -E "^(2|$$) " "$tmp/root" >"$tmp/root2"
	[ "$(wc -l <"$tmp/root2")" -eq 2 ]
	diff "$tmp/user2" "$tmp/root2"
}

@test "in a PID namespace of its own the pass shows the namespace's PIDs and parents, as /proc" {
	needs_root "a PID namespace, the BPF pass"
	unshare --pid --fork true 2>/dev/null || skip "cannot create a PID namespace here"
	# the namespace's init (sh, its parent outside: 0), a sleeper, then rtla
	# by each method
	run -0 --separate-stderr unshare --pid --fork --mount-proc sh -c '
		sleep 30 & s=$!
		"$0" capdump -a -D --raw -n -o PID,PPID,COMMAND,CAPEFF --method bpf >"$1/bpf"
		"$0" capdump -a --raw -n -o PID,PPID,COMMAND,CAPEFF --method proc >"$1/proc"
		kill $s' "$RTLA" "$tmp"
	cat "$tmp/bpf" "$tmp/proc"
	[[ "$stderr" == "rtla capdump: debug: BPF: load "*", 3 processes" ]] || { echo "$stderr"; false; }
	[ "$(head -2 "$tmp/bpf")" = "1 0 sh $(status_set $$ CapEff)
2 1 sleep $(status_set $$ CapEff)" ]
	[ "$(head -2 "$tmp/bpf")" = "$(head -2 "$tmp/proc")" ]
	[ "$(sed -n 3p "$tmp/bpf")" = "3 1 rtla $(status_set $$ CapEff)" ]
}

@test "--sysroot: a captured tree is read from its /proc, though root could load the pass" {
	needs_root "the BPF pass loads as root only"
	# the tree holds this test's own PID, with sets this process has not
	mkdir -p "$tmp/root/proc/$$" "$tmp/root/proc/sys/kernel"
	echo 40 >"$tmp/root/proc/sys/kernel/cap_last_cap"
	printf 'Name:\tcaptured\nState:\tS (sleeping)\nPPid:\t1\nUid:\t0\t0\t0\t0\nCapInh:\t0000000000000001\nCapPrm:\t0000000000000003\nCapEff:\t0000000000000002\nCapBnd:\t0000000000000007\nCapAmb:\t0000000000000001\n' \
		>"$tmp/root/proc/$$/status"
	run -0 --separate-stderr "$RTLA" --sysroot "$tmp/root" capdump -a -D --raw -n -o PID,COMMAND,CAPINH,CAPPRM,CAPEFF,CAPBND,CAPAMB
	[ "$output" = "$$ captured 0000000000000001 0000000000000003 0000000000000002 0000000000000007 0000000000000001" ]
	[ -z "$stderr" ]
}

@test "JSON of the live system is valid and holds PID 1" {
	run "$RTLA" capdump -a -J
	[ "$status" -eq 0 ]
	printf '%s' "$output" | /usr/bin/python3 -c '
import json, sys
procs = json.load(sys.stdin)["processes"]
assert any(p["pid"] == 1 for p in procs)
assert all(len(p["cap_eff"]) == 16 for p in procs if p["cap_eff"])'
}

@test "--diff: a user's child running a file with cap_net_raw+ep gained it" {
	needs_root "setcap and setpriv"
	cp /bin/sleep "$tmp/sleep"
	setcap cap_net_raw+ep "$tmp/sleep" || skip "this file system keeps no security.capability"
	want_comm=sleep start setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		sh -c "'$tmp/sleep' 60 & exec sleep 60"
	for _ in $(seq 200); do
		child=$(ps -o pid= --ppid "$pid" | tr -d ' ')
		[ -n "$child" ] && [ "$(cat "/proc/$child/comm")" = sleep ] && break
		sleep 0.01
	done
	pids+=("$child")
	run "$RTLA" capdump --diff --raw -n -o PID,PPID,GAINED,GAINED_NAMES
	[ "$status" -eq 0 ]
	[[ "$output" == *"$child $pid 0000000000002000 cap_net_raw"* ]]
	run "$RTLA" capdump --diff --raw -n -o GAINED "$pid"
	[ "$output" = "0000000000000000" ]
}

@test "a status that cannot be read (hidepid): capget's sets and a note" {
	needs_root "mounts a private /proc with hidepid"
	command -v unshare >/dev/null || skip "needs unshare"
	unshare -m true 2>/dev/null || skip "cannot create a mount namespace here"
	run unshare -m --propagation private sh -c "mount -t proc -o hidepid=1 proc /proc &&
		setpriv --reuid=65534 --regid=65534 --clear-groups '$RTLA' capdump --raw -n \
			-o PID,USER,CAPPRM,CAPEFF,CAPBND,NOTE 1"
	[ "$status" -eq 0 ]
	[ "$output" = "1 root $(status_set 1 CapPrm) $(status_set 1 CapEff)  status:\\x20Operation\\x20not\\x20permitted;\\x20inheritable,\\x20permitted,\\x20effective\\x20from\\x20capget" ]
}

@test "a PID that has exited: no such process, exit 1" {
	sleep 60 &
	gone=$!
	kill "$gone"
	wait "$gone" || true
	run "$RTLA" capdump "$gone" 1
	[ "$status" -eq 1 ]
	[[ "$output" == *"capdump: PID $gone: no such process"* ]]
}

@test "a scan while 1,000 short-lived processes start and exit completes without an error" {
	(
		for i in $(seq 1000); do
			sleep 0.00$((i % 10)) &
			[ $((i % 100)) -ne 0 ] || wait
		done
		wait
	) &
	spawner=$!
	pids+=("$spawner")
	runs=0
	while kill -0 "$spawner" 2>/dev/null || [ "$runs" -lt 3 ]; do
		for args in "-a" "--diff -a --names" ""; do
			# shellcheck disable=SC2086
			"$RTLA" capdump $args > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/err"; false; }
			# the one line allowed: a default scan that found nothing worth a look
			! grep -v 'no process matched the default filter' "$tmp/err" || false
		done
		runs=$((runs + 1))
	done
	wait "$spawner"
	echo "# $runs rounds of scans" >&3
}

@test "file capabilities: v2, permitted only, bits above 31, v3 with a rootid" {
	needs_root "setcap writes security.capability"
	: > "$tmp/v2"
	setcap cap_net_raw,cap_net_admin+ep "$tmp/v2" || skip "this file system keeps no security.capability"
	: > "$tmp/p"
	setcap cap_net_bind_service=p "$tmp/p"
	: > "$tmp/high"
	setcap cap_perfmon,cap_bpf,cap_checkpoint_restore+eip "$tmp/high"
	: > "$tmp/v3"
	setcap -n 1000 cap_net_raw+ep "$tmp/v3"
	: > "$tmp/none"
	run "$RTLA" capdump --files --raw -o PATH,VERSION,ROOTID,EFFECTIVE,CAPPRM,CAPINH,TEXT "$tmp"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "PATH VERSION ROOTID EFFECTIVE CAPPRM CAPINH TEXT" ]
	[ "${lines[1]}" = "$tmp/high 2  yes 000001c000000000 000001c000000000 cap_perfmon,cap_bpf,cap_checkpoint_restore=eip" ]
	[ "${lines[2]}" = "$tmp/p 2  no 0000000000000400 0000000000000000 cap_net_bind_service=p" ]
	[ "${lines[3]}" = "$tmp/v2 2  yes 0000000000003000 0000000000000000 cap_net_admin,cap_net_raw=ep" ]
	[ "${lines[4]}" = "$tmp/v3 3 1000 yes 0000000000002000 0000000000000000 cap_net_raw=ep" ]
	[ "${#lines[@]}" -eq 5 ]
	run "$RTLA" capdump --files -J -o PATH,VERSION,ROOTID "$tmp/v3"
	[[ "$output" == *'"version": 3,'*'"rootid": 1000'* ]]
	run "$RTLA" capdump --files --names --raw -n -o PRM_NAMES,INH_NAMES "$tmp/high" "$tmp/p"
	[ "${lines[0]}" = "cap_perfmon,cap_bpf,cap_checkpoint_restore cap_perfmon,cap_bpf,cap_checkpoint_restore" ]
	[ "${lines[1]}" = "cap_net_bind_service -" ]
}

@test "a file capability above cap_last_cap is named by its number, with a note" {
	needs_root "setcap writes security.capability"
	[ "$(cat /proc/sys/kernel/cap_last_cap)" -lt 41 ] || skip "this kernel knows capability 41"
	: > "$tmp/f"
	setcap 'cap_net_raw,41+ep' "$tmp/f" || skip "setcap refused capability 41"
	run "$RTLA" capdump --files --names --raw -n -o CAPPRM,PRM_NAMES,NOTE "$tmp/f"
	[ "$status" -eq 0 ]
	[ "$output" = "0000020000002000 cap_net_raw,41 bits\\x20above\\x20cap_last_cap" ]
}

@test "--files: -R descends, -a lists files without capabilities, a missing PATH is exit 1" {
	needs_root "setcap writes security.capability"
	mkdir -p "$tmp/a/b"
	: > "$tmp/a/b/deep"
	setcap cap_sys_nice+ep "$tmp/a/b/deep" || skip "this file system keeps no security.capability"
	: > "$tmp/a/plain"
	# (out and err outside the tree it scans)
	"$RTLA" capdump --files -n -o PATH "$tmp" > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err"
	[ ! -s "$BATS_TEST_TMPDIR/out" ]
	[ "$(cat "$BATS_TEST_TMPDIR/err")" = "rtla capdump: no regular file to check in $tmp; -R descends into the directory below" ]
	run "$RTLA" capdump --files -R -n -o PATH "$tmp/"
	[ "$output" = "$tmp/a/b/deep" ]
	run "$RTLA" capdump --files -R -a -n -o PATH "$tmp"
	[ "${lines[0]}" = "$tmp/a/b/deep" ]
	[ "${lines[1]}" = "$tmp/a/plain" ]
	run "$RTLA" capdump --files -n -o PATH "$tmp/missing" "$tmp/a/b/deep"
	[ "$status" -eq 1 ]
	[[ "$output" == *"capdump: $tmp/missing: No such file or directory"* ]]
	[[ "$output" == *"$tmp/a/b/deep"* ]]
}

@test "--files: a tree of 10,000 files streams, one header, every row in order, the record whole" {
	mkdir "$tmp/many"
	(cd "$tmp/many" && seq -f 'f%05g' 10000 | xargs touch)
	mkdir "$tmp/many/sub"
	: > "$tmp/many/sub/z"
	# the last row, alone in the last batch, is shorter than every other
	setcap cap_sys_nice+ep "$tmp/many/sub/z" || skip "this file system keeps no security.capability"
	run --separate-stderr "$RTLA" capdump --files -R -a -o PATH,VERSION,NOTE "$tmp/many"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 10002 ]
	# the header once, the rows in the walk's order across the batches
	[ "$(grep -c '^PATH ' <<<"$output")" -eq 1 ]
	[[ ${lines[0]} == "PATH "* ]]
	[ "$(sed 1d <<<"$output" | awk '{ print $1 }')" = "$(seq -f "$tmp/many/f%05g" 10000; echo "$tmp/many/sub/z")" ]
	# a batch's columns are at least as wide as the batch's before: the
	# last row's VERSION (right-aligned) ends where the header's does
	col=$(awk 'NR == 1 { print index($0, "VERSION") - 1 }' <<<"$output")
	[ "${lines[-1]:0:$col}" = "$(printf '%-*s' "$col" "$tmp/many/sub/z")" ]
	[ "${lines[-1]:$((col + 6)):1}" = 2 ]
	# a record holds every row, and the table beside it is whole too
	"$RTLA" capdump --files -R -a -o PATH --json-file "$BATS_TEST_TMPDIR/r.json" "$tmp/many" > "$BATS_TEST_TMPDIR/t"
	[ "$(grep -c '"path":' "$BATS_TEST_TMPDIR/r.json")" -eq 10001 ]
	[ "$(wc -l < "$BATS_TEST_TMPDIR/t")" -eq 10002 ]
}

@test "--files: a directory a user cannot read is a row with a note, exit 0" {
	needs_root "setpriv runs the scan as a user"
	mkdir -p "$tmp/secret"
	chmod 700 "$tmp/secret"
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$RTLA" capdump --files -R --raw -n -o PATH,NOTE "$tmp"
	[ "$status" -eq 0 ]
	[ "$output" = "$tmp/secret cannot\\x20open\\x20directory:\\x20Permission\\x20denied" ]
}

@test "--files: nothing with capabilities says so on stderr, in one line" {
	: > "$tmp/one"
	: > "$tmp/two"
	mkdir "$tmp/sub"
	err=$BATS_TEST_TMPDIR/err
	"$RTLA" capdump --files -n "$tmp" > "$BATS_TEST_TMPDIR/out" 2> "$err" || { cat "$err"; false; }
	[ ! -s "$BATS_TEST_TMPDIR/out" ]
	[ "$(cat "$err")" = "rtla capdump: none of the 2 files checked in $tmp has file capabilities (security.capability); --all lists them all; -R descends into the directory below" ]
	run "$RTLA" capdump --files -n "$tmp/one"
	[ "$status" -eq 0 ]
	[ "$output" = "rtla capdump: $tmp/one has no file capabilities (security.capability); --all lists it" ]
	run "$RTLA" capdump --files -a -n -o PATH "$tmp/one"
	[ "$output" = "$tmp/one" ]
}

@test "--files '': an empty PATH is refused in one line, exit 1; a missing one names the path" {
	run "$RTLA" capdump --files ''
	[ "$status" -eq 1 ]
	[ "$output" = "rtla capdump: empty path: ''" ]
	# refused as a malformed argument is: before anything is read or printed
	: > "$tmp/f"
	run "$RTLA" capdump --files -a -n -o PATH "$tmp/f" ''
	[ "$status" -eq 1 ]
	[ "$output" = "rtla capdump: empty path: ''" ]
	# a PATH that does not exist is named with the reason; the others are still shown
	run "$RTLA" capdump --files -a -n -o PATH "$tmp/nope" "$tmp/f"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "rtla capdump: $tmp/nope: No such file or directory" ]
	[ "${lines[1]}" = "$tmp/f" ]
	[ "${#lines[@]}" -eq 2 ]
}

# in_tty COLS CMD: run CMD in a pseudo-terminal that many columns wide, output in $tty
in_tty() {
	command -v script >/dev/null || skip "needs script (bsdutils) for a pseudo-terminal"
	tty=$BATS_TEST_TMPDIR/tty
	script -qec "stty cols $1 rows 50; COLUMNS=$1 $2" /dev/null < /dev/null | tr -d '\r' > "$tty"
}

# widest FILE: the length of its longest line, in characters
widest() {
	LC_ALL=C.UTF-8 awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$1"
}

@test "--names fits an 80-column terminal: names wrap, PID and the COMMAND's start stay" {
	needs_root "setpriv starts a process under a long user name"
	long=$(getent passwd | awk -F: 'length($1) > 12 { print $1; exit }')
	if [ -n "$long" ]; then
		start setpriv --reuid="$(id -u "$long")" --regid=65534 --clear-groups \
			--inh-caps +net_raw,+sys_nice --ambient-caps +net_raw,+sys_nice -- sleep 60
	fi
	in_tty 80 "'$RTLA' capdump -a --names"
	[ "$(widest "$tty")" -le 80 ] || { awk 'length($0) > 80' "$tty"; false; }
	[ "$(grep -c . "$tty")" -gt 2 ]
	# PID 1 is whole, right-aligned, and its command keeps at least its first 7 characters
	comm=$(cut -c1-7 /proc/1/comm)
	grep -qE "^ +1 +[^ ]+ +${comm//[^A-Za-z0-9_-]/.}" "$tty" || { head -5 "$tty"; false; }
	if [ -n "$long" ]; then
		grep -qE "^ *$pid +[^ ]+ +sleep +cap_net_r" "$tty" ||
			{ grep -A3 "^ *$pid " "$tty"; false; }
	fi
}

@test "--files --names fits an 80-column terminal with a long path" {
	needs_root "setcap writes security.capability"
	d="$tmp/a-rather-long-directory-name/with-another-long-subdirectory"
	mkdir -p "$d"
	: > "$d/and-a-file-name-that-is-long-too"
	setcap cap_chown,cap_dac_override,cap_net_admin,cap_net_raw,cap_sys_admin+eip \
		"$d/and-a-file-name-that-is-long-too" || skip "this file system keeps no security.capability"
	in_tty 80 "'$RTLA' capdump --files -R --names -o +TEXT '$tmp'"
	[ "$(widest "$tty")" -le 80 ] || { awk 'length($0) > 80' "$tty"; false; }
	# the path wraps, whole: its pieces start the lines of its row
	[ "$(awk 'NR > 1 && /^[^ ]/ { printf "%s", $1 }' "$tty")" = \
	  "$d/and-a-file-name-that-is-long-too" ] || { cat "$tty"; false; }
}
