# rtla hwlat on the kernel's real hwlat tracer (6.12 and 6.1 alike): top and
# hist print their tables and hwlatdetect's summary, the record holds the
# per-CPU gaps, every global setting (tracing_thresh, hwlat_detector/width,
# window, mode) is as it was after the run, the top level's tracer too; a
# second run is refused; --fail-if fails under the guest's gaps (TCG: every
# window has gaps of milliseconds) and passes above them.
#
# Budget: about 15 s of guest time (short windows, 2 s runs).

load /vm/lib/noise

setup() {
	default_settings
	unusual_settings
	before=$(snapshot)
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

# the settings as found: a run gives back everything it borrowed
unchanged() {
	local now
	now=$(snapshot)
	[ "$now" = "$before" ] && return 0
	diff <(echo "$before") <(echo "$now") || true
	return 1
}

@test "hwlat top: the table, hwlatdetect's summary and the record; every setting back" {
	run "$RTLA" hwlat -d 2 -p 100000 -r 20000 -T 10 -q --json-file r.json
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "                                          Hardware Latency (hwlat)" ]
	[[ ${lines[1]} == "duration:   0 00:00:0"*" | time is in us | threshold 10, window 100000, width 20000, mode round-robin" ]]
	[[ ${lines[2]} == "CPU    Samples    Exceeding   Max Inner   Max Outer"* ]]
	[[ ${lines[3]} =~ ^\ \ 0\ +[0-9]+\ +[0-9]+ ]]
	[[ ${lines[4]} =~ ^\ \ 1\ +[0-9]+\ +[0-9]+ ]]
	[[ ${lines[5]} =~ ^Max\ Latency:\ ([0-9]+us|Below\ threshold)$ ]]
	[[ ${lines[6]} =~ ^Samples\ recorded:\ [0-9]+$ ]]
	[[ ${lines[7]} =~ ^Samples\ exceeding\ threshold:\ [0-9]+$ ]]
	grep -q '"name": "rtla-hwlat-top"' r.json
	grep -q '"window_us": 100000' r.json
	grep -q '"width_us": 20000' r.json
	grep -q '"mode": "round-robin"' r.json
	grep -Eq '"samples_recorded": [0-9]+' r.json
	grep -Eq '"inner_max_us": [0-9]+' r.json
	unchanged
}

@test "hwlat hist: inner and outer columns per CPU, per-cpu mode; every setting back" {
	run "$RTLA" hwlat hist -d 2 -p 100000 -r 20000 --mode per-cpu -b 1000 -E 100 -J
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '"name": "rtla-hwlat-hist"' <<<"$output"
	grep -q '"mode": "per-cpu"' <<<"$output"
	grep -q '"inner": {' <<<"$output"
	grep -q '"outer": {' <<<"$output"
	unchanged
	run "$RTLA" hwlat hist -d 1 -p 100000 -r 20000 -b 1000 -E 100
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# RTLA hwlat histogram" ]
	[ "${lines[3]}" = "Index Inner-000 Outer-000 Inner-001 Outer-001" ]
	grep -Eq '^over: +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ $' <<<"$output"
	grep -Eq '^Samples recorded: [0-9]+$' <<<"$output"
	unchanged
}

# wait until the run in the background holds the lock (its record is written)
holding() {
	for _ in $(seq 50); do
		if [ -s /run/rtla/osnoise.state ]; then return 0; fi
		sleep 0.1
	done
	echo "no run holds the lock"
	return 1
}

@test "hwlat: a second run is refused with the first one's pid, and what it runs; hwlatdetect's place too" {
	"$RTLA" hwlat -d 3 -p 100000 -r 20000 -q >a.txt 2>&1 &
	a=$!
	holding
	run "$RTLA" hwlat -d 1 -q
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "rtla hwlat: another rtla run (pid $a) is using the hwlat tracer; its settings are global, so two runs cannot share them" ]
	wait "$a"
	unchanged
	# an osnoise run holds the lock (tracing_thresh is both tracers'): named as what it is
	"$RTLA" osnoise top -c 1 -d 3 -q >o.txt 2>&1 &
	o=$!
	holding
	run "$RTLA" hwlat -d 1 -q
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "rtla hwlat: another rtla run (pid $o) is using the osnoise tracer; its settings are global, so two runs cannot share them" ]
	wait "$o"
	unchanged
	# the tracer at the top level (as hwlatdetect runs it): refused, nothing touched
	echo hwlat >"$T/current_tracer"
	run "$RTLA" hwlat -d 1 -q
	echo nop >"$T/current_tracer"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == "rtla hwlat: the hwlat tracer is running at the top level of tracefs"* ]]
	unchanged
}

@test "hwlat --fail-if: below the guest's gaps it fails (exit 2), far above them it passes" {
	run "$RTLA" hwlat -d 2 -p 100000 -r 20000 -q --fail-if 'max_latency_us>1' --json-file f.json
	echo "$output"
	[ "$status" -eq 2 ]
	grep -Eq '^rtla hwlat: FAILED: cpu [01] max_latency_us [0-9]+ > 1; 0 of 2 CPUs passed$' <<<"$output"
	grep -q '"verdict": "failed"' f.json
	run "$RTLA" hwlat -d 2 -p 100000 -r 20000 -q --fail-if 'max_latency_us>10s' --prometheus p.prom
	echo "$output"
	[ "$status" -eq 0 ]
	grep -Eq '^rtla_hwlat_max_latency_seconds\{cpu="1",tool="hwlat top",backend="tracer",host=".*"\} [0-9.e-]+$' p.prom
	unchanged
}

@test "hwlat -s and -t: exit 2 at the first gap over -s, the samples saved; their counts make the summary" {
	run "$RTLA" hwlat -d 20 -s 1 -p 100000 -r 20000 -q -t hw.txt
	echo "$output"
	[ "$status" -eq 2 ]
	grep -qx 'hwlat hit stop tracing' <<<"$output"
	grep -qx '  Saving trace to hw.txt' <<<"$output"
	head -3 hw.txt
	samples=$(grep -c '^ts: ' hw.txt)
	exceeding=$(awk -F'count:' '{ split($2, a, ","); s += a[1] } END { print s }' hw.txt)
	[ "$samples" -gt 0 ]
	grep -qx "Samples recorded: $samples" <<<"$output"
	grep -qx "Samples exceeding threshold: $exceeding" <<<"$output"
	unchanged
}
