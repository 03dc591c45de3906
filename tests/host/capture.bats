#!/usr/bin/env bats
# rtla capture on this machine: a capture read back with --sysroot gives what
# the live system gives; files named on the command line keep their
# capabilities; nothing secret is copied; a destination that cannot take the
# capture (not empty, read-only, full) gets a one-line error, exit 1, and
# nothing that looks like a capture. Needs root (setcap, tmpfs mounts).

load ../lib/helper

setup() {
	needs_root "setcap, tmpfs mounts and root-only /proc and /sys files"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	pids=()
	mounts=()
}

teardown() {
	local p m
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	for m in "${mounts[@]}"; do
		umount "$m" 2>/dev/null || true
	done
	rm -rf "$tmp"
}

# small_fs DIR SIZE [ro]: a tmpfs of SIZE on DIR, unmounted in teardown
small_fs() {
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2${3:+,$3}" rtla-test "$1"
	mounts+=("$1")
}

# run_split CMD...: $status, $out and $err apart
run_split() {
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	set -e
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# the rows of "rtla features" that a tree can answer: not the syscall probes
# (live only), /dev/fuse (/proc/filesystems in a tree), test_dhry (this
# machine has no /lib/modules to look in), nor the u64 row's process count
tree_rows() {
	grep -vE '^(mdwe|fuse|bench) |^caps +(u64 sets|file caps v3)'
}

@test "capture: --sysroot reads the capture as the live system (capdump, features)" {
	"$RTLA" capture "$tmp/cap" >"$tmp/report"
	cat "$tmp/report"
	[ -f "$tmp/cap/rtla-capture.json" ]
	python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert d["complete"] is True' \
		"$tmp/cap/rtla-capture.json"
	# pid 1 and kthreadd do not change in between
	diff <("$RTLA" capdump -a 1 2) <("$RTLA" --sysroot "$tmp/cap" capdump -a 1 2)
	diff <("$RTLA" capdump -a --names 1 2) <("$RTLA" --sysroot "$tmp/cap" capdump -a --names 1 2)
	diff <("$RTLA" features | tree_rows) <("$RTLA" --sysroot "$tmp/cap" features | tree_rows)
	# u64 sets: the same answer, from the captured processes
	diff <("$RTLA" features -g caps -o FEATURE,STATE | head -3) \
		<("$RTLA" --sysroot "$tmp/cap" features -g caps -o FEATURE,STATE | head -3)
	# what a reader of the tree needs and no one may take
	[ -f "$tmp/cap/proc/1/status" ]
	[ -f "$tmp/cap/proc/$$/maps" ]
	[ -f "$tmp/cap/proc/sys/kernel/cap_last_cap" ]
	[ -d "$tmp/cap/sys/devices/system/cpu/cpu0" ]
	! ls "$tmp"/cap/proc/1/environ "$tmp"/cap/proc/1/mem 2>/dev/null || false
}

@test "capture: the DAMON tree is copied, and the kdamond is as it was" {
	admin=/sys/kernel/mm/damon/admin/kdamonds
	[ -d "$admin" ] || skip "no DAMON sysfs"
	before=$(cat "$admin"/*/state "$admin"/*/pid)
	"$RTLA" capture "$tmp/cap" >/dev/null
	diff <(cat "$admin/0/contexts/0/schemes/0/action" "$admin/nr_kdamonds") \
		<(cat "$tmp/cap$admin/0/contexts/0/schemes/0/action" "$tmp/cap$admin/nr_kdamonds")
	[ "$(cat "$admin"/*/state "$admin"/*/pid)" = "$before" ]
}

@test "capture: capdump --files audits the captured files, v2 and v3 capabilities" {
	mkdir "$tmp/bin"
	cp /bin/true "$tmp/bin/netraw"
	cp /bin/true "$tmp/bin/v3"
	cp /bin/true "$tmp/bin/plain"
	setcap cap_net_raw+ep "$tmp/bin/netraw"
	setcap -n 1000 cap_net_admin+ep "$tmp/bin/v3"
	"$RTLA" capture "$tmp/cap" "$tmp/bin" "$tmp/bin/netraw" >/dev/null
	"$RTLA" capdump --files --all "$tmp/bin" >"$tmp/live"
	"$RTLA" --sysroot "$tmp/cap" capdump --files --all "$tmp/bin" >"$tmp/captured"
	cat "$tmp/captured"
	diff "$tmp/live" "$tmp/captured"
	grep -q "^$tmp/bin/v3 .* 3 *1000 " "$tmp/captured"
	# the copies are empty: the capabilities, not the programs
	[ ! -s "$tmp/cap$tmp/bin/netraw" ]
	# once the live files change, the capture still tells what was
	setcap -r "$tmp/bin/netraw"
	"$RTLA" --sysroot "$tmp/cap" capdump --files "$tmp/bin/netraw" | grep -q 0000000000002000
	run_split "$RTLA" --sysroot "$tmp/cap" capdump --files /no/such/file
	[ "$status" -eq 1 ]
	[ "$err" = "rtla capdump: /no/such/file: No such file or directory" ]
}

@test "capture: a .tar.gz extracts with tar --xattrs to the same tree" {
	mkdir "$tmp/bin"
	cp /bin/true "$tmp/bin/netraw"
	setcap cap_net_raw+ep "$tmp/bin/netraw"
	"$RTLA" capture -x '/proc/[0-9]*' "$tmp/cap.tar.gz" "$tmp/bin/netraw" >/dev/null
	gzip -t "$tmp/cap.tar.gz"
	mkdir "$tmp/x"
	tar --xattrs --xattrs-include='security.*' -xzf "$tmp/cap.tar.gz" -C "$tmp/x"
	[ -f "$tmp/x/rtla-capture.json" ]
	# names longer than ustar's 100 characters come through the pax records
	if [ -d /sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs ]; then
		(cd "$tmp/x" && find . | awk 'length($0) > 102 { found = 1 } END { exit !found }')
	fi
	diff <(cd /sys/kernel/mm/damon && find . -type f -perm -0400 | sort) \
		<(cd "$tmp/x/sys/kernel/mm/damon" && find . -type f | sort)
	diff <("$RTLA" capdump --files "$tmp/bin/netraw") \
		<("$RTLA" --sysroot "$tmp/x" capdump --files "$tmp/bin/netraw")
	diff <("$RTLA" features -g tracing,realtime,damon) \
		<("$RTLA" --sysroot "$tmp/x" features -g tracing,realtime,damon)
}

@test "capture: --exclude leaves paths out and the report counts them" {
	"$RTLA" capture -x '/proc/*/maps' -x /sys/kernel/mm/damon -J "$tmp/cap" >"$tmp/r.json"
	[ -f "$tmp/cap/proc/1/status" ]
	[ -z "$(find "$tmp/cap/proc" -name maps)" ]
	[ ! -e "$tmp/cap/sys/kernel/mm/damon" ]
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
src = {s["source"]: s for s in d["sources"]}
assert src["processes"]["excluded"] > 0, src["processes"]
assert src["processes"]["files"] > 0
assert src["total"]["bytes"] == sum(s["bytes"] for n, s in src.items() if n != "total")
' "$tmp/r.json"
}

@test "capture: no environment, memory or keys: a secret in a process's environment stays home" {
	secret=rtla-secret-$RANDOM$RANDOM
	env RTLA_CAPTURE_SECRET="$secret" sleep 300 &
	pids+=($!)
	"$RTLA" capture "$tmp/cap" >/dev/null
	[ -f "$tmp/cap/proc/$!/status" ]
	! grep -rl "$secret" "$tmp/cap" || false
	[ -z "$(find "$tmp/cap" -name environ -o -name mem -o -name keys -o -name kcore)" ]
}

@test "capture: a non-empty directory, an existing file: refused, untouched" {
	mkdir "$tmp/full"
	echo keep >"$tmp/full/mine"
	run_split "$RTLA" capture "$tmp/full"
	[ "$status" -eq 1 ]
	[ -z "$out" ]
	[ "$err" = "rtla capture: $tmp/full: directory is not empty" ]
	[ "$(ls -A "$tmp/full")" = mine ]
	[ "$(cat "$tmp/full/mine")" = keep ]
	touch "$tmp/c.tar.gz"
	run_split "$RTLA" capture "$tmp/c.tar.gz"
	[ "$status" -eq 1 ]
	[ "$err" = "rtla capture: $tmp/c.tar.gz: already exists" ]
	[ ! -s "$tmp/c.tar.gz" ]
	# an empty directory takes the capture
	mkdir "$tmp/empty"
	"$RTLA" capture "$tmp/empty" >/dev/null
	[ -f "$tmp/empty/rtla-capture.json" ]
	[ "$(ls -A "$tmp" | grep -c partial)" -eq 0 ]
}

@test "capture: bad input is one line, exit 1, nothing written" {
	mkdir "$tmp/d"
	while IFS='|' read -r args want; do
		eval "set -- $args"
		run_split "$RTLA" capture "$@"
		echo "capture $args -> $status '$err' (want '$want')"
		[ "$status" -eq 1 ]
		[ -z "$out" ]
		[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]
		[[ $err == "$want"* ]]
		[ -z "$(ls -A "$tmp/d")" ]
	done <<-EOF
		|rtla capture: no destination given
		''|rtla capture: empty destination
		$tmp/d/c /no/such/file|rtla capture: /no/such/file: No such file or directory
		--max-size 0 $tmp/d/c|rtla capture: --max-size: '0' is not a size
		--max-size 12X $tmp/d/c|rtla capture: --max-size: '12X' is not a size
		-x '' $tmp/d/c|rtla capture: -x: empty pattern
		--max-size 1K $tmp/d/c|rtla capture: $tmp/d/c: the capture would pass --max-size 1024 bytes
		--max-size 1K $tmp/d/c.tar.gz|rtla capture: $tmp/d/c.tar.gz: the capture would pass --max-size
		--sysroot $tmp capture $tmp/d/c|rtla capture: --sysroot $tmp: this command needs the live system
		--pids 1,999999999 $tmp/d/c|rtla capture: --pids: no such process: 999999999
	EOF
}

@test "capture: a name of an archive rtla does not write is refused, not made a directory" {
	mkdir "$tmp/d"
	for name in c.tar c.tar.xz c.tar.bz2 c.tar.zst c.zip c.txz c.7z c.gz C.TAR.GZ c.tar/; do
		run_split "$RTLA" capture --dry-run "$tmp/d/$name"
		echo "capture $name -> $status '$err'"
		[ "$status" -eq 1 ]
		[ -z "$out" ]
		[ "$err" = "rtla capture: not an archive rtla writes (it writes DIR or FILE.tar.gz): '$tmp/d/$name'" ]
		run_split "$RTLA" capture "$tmp/d/$name"
		[ "$status" -eq 1 ]
		[ -z "$(ls -A "$tmp/d")" ]
	done
	# what it does write: a directory, a .tar.gz, a .tgz
	for name in c c.tar.gz c.tgz; do
		run_split "$RTLA" capture --dry-run "$tmp/d/$name"
		echo "capture $name -> $status '$err'"
		[ "$status" -eq 0 ]
	done
}

@test "capture: UNREADABLE names its files: in -J, in the manifest, and with -D on stderr" {
	run_split "$RTLA" capture -D -J "$tmp/cap"
	[ "$status" -eq 0 ]
	printf '%s' "$out" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
total = [s for s in doc["sources"] if s["source"] == "total"][0]["unreadable"]
print("UNREADABLE", total, "listed", len(doc["unreadable"]))
assert total == len(doc["unreadable"]), (total, doc["unreadable"])
for u in doc["unreadable"]:
    assert u["path"].startswith("/") and u["error"] and u["source"] != "total", u
'
	listed=$(printf '%s' "$out" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["unreadable"]))')
	[ "$(grep -c '^rtla capture: debug: not captured: /' "$tmp/err")" -eq "$listed" ]
	python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["unreadable"]) == int(sys.argv[2])' \
		"$tmp/cap/rtla-capture.json" "$listed"
	# without -D, nothing on stderr
	run_split "$RTLA" capture --dry-run "$tmp/cap2"
	[ "$status" -eq 0 ]
	[ -z "$err" ]
}

@test "capture: an unwritable place: exit 1, one line, nothing left" {
	small_fs "$tmp/ro" 1M ro
	for dest in "$tmp/ro/cap" "$tmp/ro/cap.tar.gz"; do
		run_split "$RTLA" capture "$dest"
		echo "$dest: $status '$err'"
		[ "$status" -eq 1 ]
		[ -z "$out" ]
		[ "$err" = "rtla capture: $dest: cannot create the capture next to it: Read-only file system" ]
	done
	run_split "$RTLA" capture --dry-run "$tmp/ro/cap"
	[ "$status" -eq 1 ]
	[ -z "$(ls -A "$tmp/ro")" ]
}

@test "capture: a full disk: exit 1, one line, and the small tmpfs is empty again" {
	small_fs "$tmp/small" 16k	# a compressed capture is ~60 KB
	for dest in "$tmp/small/cap" "$tmp/small/cap.tar.gz"; do
		run_split "$RTLA" capture "$dest"
		echo "$dest: $status '$err'"
		[ "$status" -eq 1 ]
		[ -z "$out" ]
		[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]
		[[ $err == "rtla capture: $dest: No space left on device (at "*"); nothing was written" ]]
		[ -z "$(ls -A "$tmp/small")" ]
	done
}

@test "capture: --dry-run reads it all, reports the sizes and writes nothing" {
	"$RTLA" capture --dry-run "$tmp/cap" >"$tmp/report"
	cat "$tmp/report"
	[ ! -e "$tmp/cap" ]
	grep -qE '^processes +[1-9][0-9]* +[1-9]' "$tmp/report"
	grep -qE '^total .*dry run: nothing written' "$tmp/report"
}

@test "capture: --pids takes only those processes, and says so in the manifest" {
	sleep 300 &
	pids+=($!)
	"$RTLA" capture --pids "1,$!" "$tmp/cap" >/dev/null
	[ "$(ls "$tmp/cap/proc" | grep -E '^[0-9]+$' | sort -n | tr '\n' ' ')" = "1 $! " ]
	[ -f "$tmp/cap/proc/$!/maps" ]
	[ -f "$tmp/cap/proc/$!/stat" ]
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["pids"] == [1, int(sys.argv[2])]' \
		"$tmp/cap/rtla-capture.json" "$!"
	run_split "$RTLA" capture --pids 1,abc "$tmp/cap2"
	[ "$status" -eq 1 ]
	[ "$err" = "rtla capture: --pids: 'abc' is not a PID" ]
}

@test "capture: killed at any moment, it leaves a complete capture or no DEST at all" {
	for delay in 0.005 0.02 0.05 0.1 0.2; do
		"$RTLA" capture "$tmp/cap" >/dev/null 2>&1 &
		p=$!
		sleep "$delay"
		kill -9 "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
		if [ -e "$tmp/cap" ]; then
			echo "$delay: finished before the kill"
			python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["complete"]' \
				"$tmp/cap/rtla-capture.json"
			rm -rf "$tmp/cap"
		else
			echo "$delay: killed; left: $(ls -A "$tmp")"
		fi
		# whatever is left says what it is
		! ls -A "$tmp" | grep -v '^\.cap\.rtla-partial\.' || false
		rm -rf "$tmp"/.cap.rtla-partial.*
	done
}
