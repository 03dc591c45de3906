# osnoise hist and hwnoise hist on the tracer: what they write to the kernel,
# exit codes, the JSON record against the text, the warm-up, and the kernel
# state given back as by osnoise top. (40-osnoise-hist.bats compares the text
# with the peer's.)

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	pkill -KILL -f /usr/local/bin/rtla 2>/dev/null || true
	default_settings
}

# probe FILE...: an --on-end action that copies tracefs files into state.txt
probe() {
	local cmd="" f
	for f in "$@"; do
		cmd+="echo $f=\$(cat $T/$f); "
	done
	echo "shell,command=( $cmd ) > $BATS_TEST_TMPDIR/state.txt"
}

@test "defaults written as by top: osnoise hist 1 s of 1 s with IRQs on, hwnoise hist 750 ms with IRQs off" {
	run "$RTLA" osnoise hist -c 1 -d 1s --on-end "$(probe osnoise/runtime_us osnoise/period_us tracing_thresh osnoise/cpus osnoise/options)"
	cat state.txt
	[ "$status" -eq 0 ]
	grep -qx 'osnoise/runtime_us=1000000' state.txt
	grep -qx 'osnoise/period_us=1000000' state.txt
	grep -qx 'tracing_thresh=0' state.txt
	grep -qx 'osnoise/cpus=1' state.txt
	grep -q 'NO_OSNOISE_IRQ_DISABLE' state.txt
	run "$RTLA" hwnoise hist -c 1 -d 1s -T 2 --on-end "$(probe osnoise/runtime_us osnoise/period_us tracing_thresh osnoise/options)"
	echo "$output"
	cat state.txt
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# RTLA hwnoise histogram" ]
	grep -qx 'osnoise/runtime_us=750000' state.txt
	grep -qx 'tracing_thresh=2' state.txt
	grep -q ' OSNOISE_IRQ_DISABLE' state.txt
	! grep -q 'NO_OSNOISE_IRQ_DISABLE' state.txt || false
}

@test "-s: the histogram, then 'osnoise hit stop tracing', exit 2; -S too" {
	run "$RTLA" osnoise hist -c 1 -s 1 -T 1 -d 20s --json-file stop.json
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "osnoise hit stop tracing" ]
	[ "${lines[0]}" = "# RTLA osnoise histogram" ]
	grep -q '"verdict": "stopped"' stop.json
	grep -q '"condition": "single"' stop.json
	run "$RTLA" hwnoise hist -c 0 -S 1 -T 1 -d 20s
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "osnoise hit stop tracing" ]
}

@test "--json-file: the record agrees with the text; the figures are exact" {
	run "$RTLA" osnoise hist -c 0-1 -d 2s -b 2 -E 40 --json-file r.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '"name": "rtla-osnoise-hist"' r.json
	grep -q '"command": "osnoise hist"' r.json
	grep -q '"backend": "tracer"' r.json
	grep -q '"bucket_size_us": 2' r.json
	grep -q '"resolution_ns": 1000' r.json
	# the count row of the text, CPU by CPU, is the record's
	[ "$(awk '$1 == "count:" { $1 = ""; print }' <<<"$output" | xargs)" = \
		"$(grep '"count":' r.json | grep -o '[0-9]*' | xargs)" ]
	[ "$(awk '$1 == "over:" { $1 = ""; print }' <<<"$output" | xargs)" = \
		"$(grep '"over_count":' r.json | grep -o '[0-9]*' | xargs)" ]
	grep -Eq '"p9999_us": [0-9]+' r.json
	grep -Eq '"avg_us": [0-9]+\.[0-9]{3}' r.json
	# the first bucket row of CPU 0 is the record's first bucket
	first=$(awk '/^[0-9]/ && $2 > 0 { print "[" $1 ", " $2 "]"; exit }' <<<"$output")
	grep -qF "$first" r.json
}

@test "--warm-up: samples of the warm-up are not counted; -J alone on stdout" {
	run "$RTLA" osnoise hist -c 0 -d 2s --warm-up 1 -J
	echo "${output:0:400}"
	[ "$status" -eq 0 ]
	[ "${output:0:1}" = "{" ]
	grep -Eq '"count": [1-9][0-9]*' <<<"$output"
	grep -q '"warmup_s": 1' <<<"$output"
}

@test "the kernel state is given back: normal end, stop, SIGINT, SIGTERM" {
	unusual_settings
	before=$(snapshot)
	run "$RTLA" osnoise hist -c 1 -d 1s
	[ "$status" -eq 0 ]
	assert_state_unchanged "$before"
	run "$RTLA" hwnoise hist -c 1 -s 1 -T 1 -d 20s
	[ "$status" -eq 2 ]
	assert_state_unchanged "$before"
	for sig in INT TERM; do
		"$RTLA" osnoise hist -c 1 -d 60s >out.txt 2>&1 &
		pid=$!
		sleep 3
		kill -"$sig" "$pid"
		status=0
		wait "$pid" || status=$?
		echo "SIG$sig: status $status"
		cat out.txt
		if [ "$sig" = INT ]; then
			[ "$status" -eq 0 ]
			grep -q '^count:' out.txt
		fi
		assert_state_unchanged "$before"
	done
}

@test "a second SIGINT skips the drain, yet the kernel's histogram is still printed" {
	before=$(snapshot)
	"$RTLA" osnoise hist -c 1 -d 60s >out.txt 2>&1 &
	pid=$!
	sleep 3
	kill -INT "$pid"
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	cat out.txt
	[ "$status" -eq 0 ]
	grep -Eq '^count: +[1-9]' out.txt
	assert_state_unchanged "$before"
}

@test "bad input: exit 1, one line, the kernel state untouched" {
	unusual_settings
	before=$(snapshot)
	for args in "-b 0" "-b 1000000" "-E 9" "-E 10000000" "--no-index" "-q" "-c 9" "-b x"; do
		eval "set -- $args"
		run "$RTLA" osnoise hist "$@"
		echo "osnoise hist $args -> $status: $output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
	done
	run "$RTLA" osnoise hist -b 0
	[ "$output" = "rtla osnoise hist: Bucket size needs to be > 0 and <= 1000000" ]
	assert_state_unchanged "$before"
}
