# rtla damos on Linux 6.12 with real writes: a kdamond of rtla's on a test
# process, each filter type added while it runs, set, rm, commit, stop; every
# invalid input refused before any write; the rollback after a commit that
# killed the kdamond; an addr filter's effect in tried_regions/total_bytes.
# The tests run in order and share the kdamond they start.

KD=/sys/kernel/mm/damon/admin/kdamonds
CG=/sys/fs/cgroup

setup_file() {
	export RTLA_DAMOS_BOOT_WINDOW=0	# the kdamonds of this guest were all started by the tests
	echo +memory >"$CG/cgroup.subtree_control"
	mkdir -p "$CG/damos-test"
	rm -f /tmp/damos-fifo
	mkfifo /tmp/damos-fifo
	# dd's 64 MiB buffer is the victim's biggest mapping (anonymous); it
	# waits in read() on a FIFO opened read-write, so nothing ever comes
	dd bs=64M count=1 of=/dev/null <>/tmp/damos-fifo 2>/dev/null &
	echo $! >/tmp/damos-victim
	disown
	for _ in $(seq 100); do
		[ "$(biggest_size)" -ge 67108864 ] 2>/dev/null && break
		sleep 0.1
	done
}

teardown_file() {
	if [ -f $KD/nr_kdamonds ]; then
		for k in $KD/[0-9]*; do echo off >"$k/state" 2>/dev/null || true; done
		echo 0 >$KD/nr_kdamonds || true
	fi
	kill "$(cat /tmp/damos-victim)" 2>/dev/null || true
	rmdir "$CG/damos-test" "$CG/damos-gone" 2>/dev/null || true
	rm -rf /run/rtla/damos /tmp/damos-fifo
}

# a test that set rtla's mark of kdamond 0 aside puts it back, pass or fail:
# the tests after it share that kdamond
teardown() {
	if [ -e /tmp/damos-mark ]; then mv /tmp/damos-mark /run/rtla/damos/kdamond-0; fi
}

victim() { cat /tmp/damos-victim; }
kpid() { cat $KD/0/pid; }
S=$KD/0/contexts/0/schemes/0

# the configuration of kdamond 0 as files (what a commit hands the kernel),
# in two processes: a fork costs much under TCG
config() {
	grep -r '' $KD/0 | grep -vE '/(stats|tried_regions)/|/effective_bytes:' | sort
}

# the biggest mapping of the victim: "START END" in hex
biggest_mapping() {
	local range best=0 s e out=""
	while read -r range _; do
		s=$((16#${range%-*})) e=$((16#${range#*-}))
		if ((e - s > best)); then best=$((e - s)) out="0x${range%-*} 0x${range#*-}"; fi
	done </proc/"$(victim)"/maps
	echo "$out"
}

biggest_size() {
	local start end
	read -r start end <<<"$(biggest_mapping)"
	echo $((end - start))
}

@test "start: a kdamond of rtla's on a test process" {
	run "$RTLA" damos start --pid "$(victim)" --action stat --quota-ms 0
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == "kdamond 0 started: pid $(kpid), vaddr of pid $(victim), scheme 0: stat, 0 filters" ]]
	[ "$(cat $KD/0/state)" = on ]
	[ "$(cat $KD/0/contexts/0/targets/0/pid_target)" = "$(victim)" ]
	run "$RTLA" damos
	echo "$output"
	[[ ${lines[0]} == "kdamond 0: on, pid $(kpid), rtla's" ]]
	[[ $output == *"      filters: none"* ]]
}

@test "filter add: each type 6.12 takes, committed while it runs, same kdamond thread" {
	pid=$(kpid)
	read -r start end <<<"$(biggest_mapping)"
	i=0
	for spec in "anon" "reject none young" "memcg /damos-test" "target 0" "none addr $start-$end"; do
		# shellcheck disable=SC2086
		run "$RTLA" damos filter add $spec
		echo "filter add $spec -> $status: $output"
		[ "$status" -eq 0 ]
		[[ $output == "kdamond 0 scheme 0: added filters/$i: "*"; committed" ]]
		[ "$(cat $KD/0/state)" = on ]
		[ "$(kpid)" = "$pid" ]
		i=$((i + 1))
	done
	[ "$(cat $S/filters/nr_filters)" = 5 ]
	[ "$(cat $S/filters/1/type) $(cat $S/filters/1/matching)" = "young N" ]
	[ "$(cat $S/filters/2/memcg_path)" = /damos-test ]
	[ "$(cat $S/filters/4/addr_start)" = "$((start))" ]
	run "$RTLA" damos
	echo "$output"
	[[ $output == *"      filters/0: reject anon"$'\n'"      filters/1: reject none young"* ]]
	[[ $output == *"      filters/4: reject none addr $start-$end"* ]]
}

@test "filter set replaces a filter, filter rm removes one and the others move up" {
	pid=$(kpid)
	run "$RTLA" damos filter set filters/0 none anon
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat $S/filters/0/matching)" = N ]
	run "$RTLA" damos filter rm filters/1
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == "kdamond 0 scheme 0: removed filters/1: reject none young; committed" ]]
	[ "$(cat $S/filters/nr_filters)" = 4 ]
	[ "$(cat $S/filters/1/type) $(cat $S/filters/1/memcg_path)" = "memcg /damos-test" ]
	[ "$(cat $S/filters/3/type)" = addr ]
	# a memcg filter set to another type: its path is emptied, and back
	run "$RTLA" damos filter set filters/1 young
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$(cat $S/filters/1/memcg_path)" ]
	run "$RTLA" damos filter set filters/1 memcg /damos-test
	[ "$status" -eq 0 ]
	[ "$(cat $S/filters/1/memcg_path)" = /damos-test ]
	[ "$(kpid)" = "$pid" ]
}

@test "every invalid input is refused before any write: the configuration is unchanged" {
	before=$(config)
	pid=$(kpid)
	sleep 1000 &
	dead=$!
	kill $dead
	wait $dead || true
	while IFS='|' read -r args want; do
		eval "set -- $args"
		run "$RTLA" damos "$@"
		echo "damos $args -> $status: $output"
		[ "$status" -eq 1 ]
		[[ $output == *"$want"* ]] || { echo "want: $want"; return 1; }
		[ "$(config)" = "$before" ]
		[ "$(kpid)" = "$pid" ]
	done <<-EOF
		filter add bogus|unknown filter type: bogus
		filter add addr 0x2000-0x1000|addr range is empty or reversed
		filter add memcg /nope|memcg /nope: no such cgroup under /sys/fs/cgroup
		filter add target 3|target index 3 is out of range (1 target)
		filter add allow anon|this kernel has no allow filters
		filter add unmapped|this kernel does not offer unmapped filters (Linux 6.15 added them)
		filter add --dir ops_filters anon|this kernel has no ops_filters directory
		filter add --scheme 1 anon|kdamond 0 has no scheme 1
		filter add -k 3 anon|-k 3: no such kdamond
		filter rm filters/9|no such filter: filters/9
		filter set filters/0 addr 0x5000-0x1000|addr range is empty or reversed
		filter frob|rtla damos filter: unknown verb: 'frob' (verbs: add, rm, set)
		start --pid $dead|target 0: pid $dead is not a running process; nothing was written
		start --paddr|cannot add a kdamond while kdamond 0 runs
		start --pid $(victim) -k 0|kdamond 0 is running: stop it first
	EOF
}

@test "a hand edit the kernel would die of is refused by commit, nothing committed" {
	pid=$(kpid)
	echo 4096 >$S/filters/3/addr_end
	run "$RTLA" damos commit
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"scheme 0 filters/3: addr range "*" is empty or reversed; nothing was committed" ]]
	[ "$(cat $KD/0/state)" = on ]
	[ "$(kpid)" = "$pid" ]
	read -r _ end <<<"$(biggest_mapping)"
	echo $((end)) >$S/filters/3/addr_end
}

@test "filter add --no-commit writes the files, commit applies them" {
	pid=$(kpid)
	run "$RTLA" damos filter add --no-commit young
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"written, not committed"* ]]
	[ -f /run/rtla/damos/kdamond-0.prev ]
	run "$RTLA" damos commit
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "kdamond 0: committed (pid $pid)" ]
	[ ! -e /run/rtla/damos/kdamond-0.prev ]
	[ "$(cat $S/filters/nr_filters)" = 5 ]
}

@test "rollback: a memcg removed between validation and commit kills the kdamond; the previous configuration runs again" {
	mkdir "$CG/damos-gone"
	before=$(config | grep -v "^$KD/0/pid:")
	pid=$(kpid)
	RTLA_DAMOS_BEFORE_COMMIT="rmdir $CG/damos-gone; sleep 0.5" run "$RTLA" damos filter add memcg /damos-gone
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"commit of kdamond 0 was taken, but kdamond 0 stopped (state off)"* ]]
	[[ $output == *"rollback: kdamond 0 runs the previous configuration again (pid "* ]]
	[ "$(cat $KD/0/state)" = on ]
	[ "$(kpid)" != "$pid" ]
	[ "$(config | grep -v "^$KD/0/pid:")" = "$before" ]
	# restarted by rtla: still rtla's
	run "$RTLA" damos
	[[ ${lines[0]} == "kdamond 0: on, pid $(kpid), rtla's" ]]
}

@test "an addr filter that rejects all but the 64 MiB area leaves exactly that area tried" {
	for _ in 1 2 3 4 5; do "$RTLA" damos filter rm filters/0 >/dev/null; done
	[ "$(cat $S/filters/nr_filters)" = 0 ]
	read -r start end <<<"$(biggest_mapping)"
	run "$RTLA" damos filter add none addr "$start-$end"
	[ "$status" -eq 0 ]
	for _ in $(seq 20); do
		"$RTLA" damos --refresh >/dev/null
		total=$(cat $S/tried_regions/total_bytes)
		[ "$total" -gt 0 ] && break
		sleep 0.2
	done
	echo "area $start-$end: $((end - start)) bytes, tried $total"
	[ $((end - start)) -ge 67108864 ]
	[ "$total" -eq $((end - start)) ]
}

@test "someone else's kdamond: refused unless named; one started with the machine never" {
	mv /run/rtla/damos/kdamond-0 /tmp/damos-mark
	run "$RTLA" damos filter add anon
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"no kdamond of rtla's is running"* ]]
	# the longest window rtla takes (86400 s): this guest's kdamond counts as the machine's
	RTLA_DAMOS_BOOT_WINDOW=86400 run "$RTLA" damos filter add -k 0 anon
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"was started with the machine: rtla damos never writes to it" ]]
	run "$RTLA" damos
	[[ ${lines[0]} == "kdamond 0: on, pid $(kpid), not rtla's" ]]
	run "$RTLA" damos filter add -k 0 anon
	echo "$output"
	[ "$status" -eq 0 ]
	mv /tmp/damos-mark /run/rtla/damos/kdamond-0
}

@test "one writer at a time: a second one is refused while the first commits" {
	RTLA_DAMOS_BEFORE_COMMIT="sleep 3.5" "$RTLA" damos filter add young >/dev/null &
	first=$!
	sleep 0.5
	run "$RTLA" damos filter rm filters/0
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == "rtla damos filter rm: another rtla damos (pid $first) is writing DAMON"* ]]
	wait $first
}

@test "a run killed between its writes and its commit: the next one puts the files back first" {
	before=$(config)
	n=$(cat $S/filters/nr_filters)
	RTLA_DAMOS_BEFORE_COMMIT='kill -9 $PPID' run "$RTLA" damos filter add anon
	[ "$status" -eq 137 ]
	[ "$(cat $S/filters/nr_filters)" = $((n + 1)) ]
	run "$RTLA" damos commit
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "rtla damos commit: warning: rtla damos (pid "*") died while changing kdamond 0: its files are put back to what the kdamond ran before" ]]
	[ "$(config)" = "$before" ]
}

@test "a target that dies between validation and commit: the kdamond cannot start again, and says so" {
	pid=$(kpid)
	RTLA_DAMOS_BEFORE_COMMIT="kill -9 $(victim); sleep 0.5" run "$RTLA" damos filter add anon
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"rollback: "* ]]
	[ "$(cat $KD/0/state)" = off ]
}

@test "stop: rtla's kdamond stops, and is removed as the last one" {
	run "$RTLA" damos stop -k 0
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "kdamond 0 stopped and removed" ]
	[ "$(cat $KD/nr_kdamonds)" = 0 ]
	[ ! -e /run/rtla/damos/kdamond-0 ]
}

@test "start --paddr: physical memory with an anon filter, a pageout quota; stop" {
	run "$RTLA" damos start --paddr --action pageout --age 100-max --quota-bytes 1048576 \
		--quota-reset-ms 1000 --filter 'reject anon'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "kdamond 0 started: pid $(kpid), paddr, scheme 0: pageout, 1 filter" ]
	[ "$(cat $KD/0/contexts/0/operations) $(cat $S/quotas/bytes) $(cat $S/access_pattern/age/min)" = "paddr 1048576 100" ]
	run "$RTLA" damos --refresh
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"      filters/0: reject anon"* ]]
	run "$RTLA" damos stop
	[ "$status" -eq 0 ]
	[ "$(cat $KD/nr_kdamonds)" = 0 ]
}
