# Kernel state is borrowed, never kept: every exit path of osnoise top and hwnoise
# restores what the run found (here deliberately not the kernel defaults).

load /vm/lib/noise

setup() {
	default_settings
	unusual_settings
	before=$(snapshot)
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	pkill -KILL -f /usr/local/bin/rtla 2>/dev/null || true
	default_settings
}

@test "normal end restores every setting" {
	run "$RTLA" hwnoise -c 1 -d 1s -q
	[ "$status" -eq 0 ]
	assert_state_unchanged "$before"
}

@test "a -s stop exits 2, says so, and restores" {
	run "$RTLA" osnoise top -c 1 -s 1 -T 1 -d 20s -q --json-file stop.json
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "osnoise hit stop tracing" ]
	grep -q '"verdict": "stopped"' stop.json
	grep -q '"condition": "single"' stop.json
	grep -q '"cpu": 1' stop.json
	assert_state_unchanged "$before"
}

@test "a -S stop exits 2 and records the period total" {
	run "$RTLA" hwnoise -c 0 -S 1 -T 1 -d 20s -q --json-file stop.json
	echo "$output"
	cat stop.json
	[ "$status" -eq 2 ]
	grep -q '"condition": "total"' stop.json
	grep -Eq '"value_us": [0-9]+' stop.json
	assert_state_unchanged "$before"
}

# run_and_signal SIGNAL... : start a long run, send the signals 0.1 s apart (a
# later one may find the run already gone, which is fine)
run_and_signal() {
	"$RTLA" hwnoise -c 1 -d 60s -q >out.txt 2>err.txt &
	pid=$!
	sleep 3
	kill -"$1" "$pid"
	shift
	for sig in "$@"; do
		sleep 0.1
		kill -"$sig" "$pid" 2>/dev/null || true
	done
	status=0
	wait "$pid" || status=$?
	cat out.txt err.txt
}

@test "SIGINT ends the run with the final table and restores" {
	run_and_signal INT
	[ "$status" -eq 0 ]
	grep -q 'Hardware-related Noise' out.txt
	assert_state_unchanged "$before"
}

@test "a second SIGINT aborts the drain but still restores" {
	run_and_signal INT INT
	[ "$status" -eq 0 ]
	assert_state_unchanged "$before"
}

@test "SIGTERM restores" {
	run_and_signal TERM
	assert_state_unchanged "$before"
}

@test "SIGHUP restores" {
	run_and_signal HUP
	assert_state_unchanged "$before"
}

@test "an error after partial setup (a cgroup that does not exist) restores" {
	run "$RTLA" osnoise top -c 1 -C no-such-cgroup -d 5s -q
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"no-such-cgroup"* ]]
	assert_state_unchanged "$before"
}

# kill_a_run: a hwnoise run killed by SIGKILL once it is measuring, with its
# guardian (alone, rtla's SIGKILL is undone by the guardian within a second:
# 25-osnoise-kill.bats; this guest has no pgrep); its pid in $pid
kill_a_run() {
	"$RTLA" hwnoise -c 1 -d 60s -q >/dev/null 2>&1 &
	pid=$!
	sleep 3
	kill -KILL "$(guardian_of "$pid")" "$pid"
	wait "$pid" || true
}

@test "SIGKILL of rtla and its guardian leaves state that the next run reclaims, with a message" {
	kill_a_run
	[ "$(cat $T/osnoise/runtime_us)" = 750000 ]
	ls $T/instances | grep -q "rtla_osnoise_top_$pid"
	run "$RTLA" hwnoise -c 1 -d 1s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"left by a killed rtla run (pid $pid)"* ]]
	assert_state_unchanged "$before"
}

@test "a killed run's record is not replayed while another tracer runs; it is later" {
	kill_a_run
	# someone removes the stale instance by hand and starts timerlat
	echo nop >"$T/instances/rtla_osnoise_top_$pid/current_tracer"
	rmdir "$T/instances/rtla_osnoise_top_$pid"
	echo timerlat >$T/current_tracer
	busy=$(snapshot)
	run "$RTLA" osnoise top -c 1 -d 1s -q
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *timerlat* ]]
	assert_state_unchanged "$busy"
	echo nop >$T/current_tracer
	run "$RTLA" hwnoise -c 1 -d 1s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"left by a killed rtla run (pid $pid)"* ]]
	assert_state_unchanged "$before"
}

@test "a second concurrent run is refused and does not disturb the first" {
	"$RTLA" hwnoise -c 1 -d 6s -q >first.txt 2>&1 &
	pid=$!
	sleep 3
	run "$RTLA" osnoise top -c 0 -d 1s -q
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"another rtla run (pid $pid, host "*") is using the osnoise tracer"* ]]
	wait "$pid"
	grep -q 'Hardware-related Noise' first.txt
	assert_state_unchanged "$before"
}

@test "timerlat running: a clear error, nothing changed" {
	echo timerlat >$T/current_tracer
	before_tl=$(snapshot)
	run "$RTLA" osnoise top -c 1 -d 1s -q
	echo nop >$T/current_tracer
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"timerlat"* ]]
	# the check comes before anything is written
	echo timerlat >$T/current_tracer
	assert_state_unchanged "$before_tl"
	echo nop >$T/current_tracer
}

@test "bad inputs: exit 1, one line on stderr, kernel state unchanged" {
	for args in "-c 9" "-c 1-0" "-c x" "-d 0" "-d 10x" "-P f:0" "-P d:2ms:1ms" "-P x:1" \
		"-p 10000001" "-r 99" "-r 2000000 -p 1000000" "-e" "-e ''" "--filter x" \
		"--trigger x" "--on-threshold bogus" "--on-end signal,num=10" "-T -1" "-s abc" \
		"--warm-up -1" "--trace-buffer-size 1x" "--backend gpu" "--no-such-option"; do
		eval "set -- $args"
		run "$RTLA" hwnoise "$@"
		echo "hwnoise $args -> $status: $output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == "rtla hwnoise: "* ]]
	done
	assert_state_unchanged "$before"
}
