# timerlat's gates and records on the real tracer: --fail-if on the per-
# context latencies (a gate under the guest's latencies fails, one above them
# passes and leaves the kernel as it was), the -J record against the table,
# hist's percentiles, and the JUnit and Prometheus files.

bats_require_minimum_version 1.5.0

load /vm/lib/noise
load /vm/lib/timerlat

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

# json_ctx FILE CPU CONTEXT KEY: the value of KEY in CONTEXT (irq, thread,
# user) of CPU in the record's per-CPU figures (its "cpus" array)
json_ctx() {
	awk -v cpu="$2" -v ctx="\"$3\":" -v key="\"$4\":" '
		$1 == "\"cpu\":" { c = $2; sub(",", "", c) }
		$1 == ctx && c == cpu { inside = 1; next }
		inside && $1 == key { v = $2; sub(",", "", v); print v; exit }
		inside && /}/ { inside = 0 }
	' "$1"
}

@test "gate: a limit under the guest's latencies fails, exit 2, one FAILED line on stderr" {
	run --separate-stderr "$RTLA" timerlat top -c 0 -d 2s -q --fail-if 'thread_max_us>1' \
		--junit j.xml --json-file r.json --prometheus p.prom
	echo "$output"
	echo "stderr: $stderr"
	[ "$status" -eq 2 ]
	[[ ${lines[3]} =~ $TL_ROW_U ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr =~ ^rtla\ timerlat\ top:\ FAILED:\ cpu\ 0\ thread_max_us\ [0-9]+(\.[0-9]+)?\ \>\ 1\;\ 0\ of\ 1\ CPUs\ passed$ ]]
	# the figure is the table's thread max, in us
	read -r _ _ _ _ _ _ _ _ _ tmax _ <<<"${lines[3]//|/ }"
	[[ $stderr == *"thread_max_us $tmax"* ]]
	grep -q '"verdict": "failed"' r.json
	grep -q '"metric": "thread_max_us"' r.json
	grep -Eq '<failure type="latency gate" message="cpu 0 thread_max_us [0-9.]+ &gt; 1">' j.xml
	grep -q '^rtla_gate_passed{cpu="0",tool="timerlat top",backend="tracer",host=".*"} 0$' p.prom
	# no stop condition was armed: the run went on to its end
	grep -q '"stop": null' r.json
}

@test "gate: hist's percentiles and the user context, failing on every CPU" {
	run --separate-stderr "$RTLA" timerlat hist -c 0-1 -d 2s -b 1000 \
		--fail-if 'p50_thread_us>=0' --fail-if 'user_min_us<0' --json-file r.json
	echo "$output"
	echo "stderr: $stderr"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "# RTLA timerlat histogram" ]
	# one line: the first failure and how many CPUs passed
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr =~ ^rtla\ timerlat\ hist:\ FAILED:\ cpu\ 0\ p50_thread_us\ [0-9]+\ \>=\ 0\;\ 0\ of\ 2\ CPUs\ passed$ ]]
	# the record's failures are both CPUs' p50, none of the criterion that held;
	# its limits name both criteria
	failures=$(sed -n '/"failures": \[/,/^ *\]/p' r.json)
	[ "$(grep -c '"metric": "p50_thread_us"' <<<"$failures")" -eq 2 ]
	run ! grep -q '"metric": "user_min_us"' <<<"$failures"
	limits=$(sed -n '/"limits": \[/,/^ *\]/p' r.json)
	grep -q '"metric": "p50_thread_us"' <<<"$limits"
	grep -q '"metric": "user_min_us"' <<<"$limits"
}

@test "gate: limits above the latencies pass, exit 0, the kernel left as it was" {
	tl_unusual_settings
	before=$(snapshot)
	run --separate-stderr "$RTLA" timerlat top -c 0-1 -d 2s -q --fail-if 'thread_max_us>10000000' \
		--fail-if 'irq_avg_us>1000000' --fail-if 'user_sample_count<1' -J
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$stderr" = "rtla timerlat top: passed: 3 criteria on 2 CPUs" ]
	grep -q '"verdict": "passed"' <<<"$output"
	grep -q '"failures": \[\]' <<<"$output"
	assert_state_unchanged "$before"
}

@test "-J (top): per CPU and context count, min_ns, avg_ns, max_ns, the table's figures in ns" {
	run "$RTLA" timerlat top -c 0-1 -d 2s -q --json-file r.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '"name": "rtla-timerlat-top"' r.json
	grep -q '"command": "timerlat top"' r.json
	grep -q '"workload": "user"' r.json
	grep -q '"period_us": 1000' r.json
	grep -q '"verdict": "passed"' r.json
	for cpu in 0 1; do
		row=$(grep "^  $cpu #" <<<"$output")
		read -r _ count _ imin iavg imax _ tmin tavg tmax _ umin uavg umax <<<"${row//|/ }"
		[ "#$(json_ctx r.json "$cpu" irq count)" = "$count" ]
		[ "$(json_ctx r.json "$cpu" thread count)" -ge 1 ]
		[ "$(json_ctx r.json "$cpu" user count)" -ge 1 ]
		set -- irq "$imin" "$iavg" "$imax" thread "$tmin" "$tavg" "$tmax" user "$umin" "$uavg" "$umax"
		while [ $# -gt 0 ]; do
			echo "cpu $cpu $1: table $2 $3 $4," \
				"record $(json_ctx r.json "$cpu" "$1" min_ns) $(json_ctx r.json "$cpu" "$1" avg_ns) $(json_ctx r.json "$cpu" "$1" max_ns)"
			[ "$(($(json_ctx r.json "$cpu" "$1" min_ns) / 1000))" = "$2" ]
			[ "$(($(json_ctx r.json "$cpu" "$1" max_ns) / 1000))" = "$4" ]
			avg=$(json_ctx r.json "$cpu" "$1" avg_ns)
			[ "$((${avg%.*} / 1000))" -ge $(($3 - 1)) ]
			[ "$((${avg%.*} / 1000))" -le $(($3 + 1)) ]
			shift 4
		done
	done
	# -J alone: the record on stdout, no table
	run "$RTLA" timerlat top -c 1 -k -d 1s -J
	[ "$status" -eq 0 ]
	[ "${output:0:1}" = "{" ]
	[[ $output != *"Timer Latency"* ]]
	grep -q '"workload": "kernel"' <<<"$output"
	run ! grep -q '"user":' <<<"$output"
}

@test "-J (hist): the buckets, and percentiles in order up to the max, per context" {
	run "$RTLA" timerlat hist -c 0 -d 2s -b 100 -E 20 --json-file r.json
	echo "$output" | tail -12
	[ "$status" -eq 0 ]
	grep -q '"name": "rtla-timerlat-hist"' r.json
	grep -q '"bucket_size": 100' r.json
	grep -q '"entries": 20' r.json
	for ctx in irq thread user; do
		p=()
		for k in p50_us p90_us p99_us p999_us p9999_us; do p+=("$(json_ctx r.json 0 "$ctx" "$k")"); done
		max_us=$(($(json_ctx r.json 0 "$ctx" max_ns) / 1000))
		echo "$ctx: ${p[*]} max $max_us"
		[ "${p[0]}" -le "${p[1]}" ]
		[ "${p[1]}" -le "${p[2]}" ]
		[ "${p[2]}" -le "${p[3]}" ]
		[ "${p[3]}" -le "${p[4]}" ]
		[ "${p[4]}" -le "$max_us" ]
	done
	# the count row of the text is the record's, column by column
	[ "$(awk '$1 == "count:" { $1 = ""; print; exit }' <<<"$output" | xargs)" = \
		"$(json_ctx r.json 0 irq count) $(json_ctx r.json 0 thread count) $(json_ctx r.json 0 user count)" ]
	# the first bucket row of the text is the record's first IRQ bucket
	first=$(awk '/^[0-9]/ && $2 > 0 { print $1 " " $2; exit }' <<<"$output")
	[ "$(awk '/"irq": \{/ { f = 1; next }
		f && /[0-9]/ { gsub(/[^0-9]/, ""); v[n++] = $0; if (n == 2) { print v[0], v[1]; exit } }' r.json)" = "$first" ]
}

@test "--junit and --prometheus without a gate: a measured case and the latency figures per CPU" {
	run "$RTLA" timerlat top -c 0 -d 2s -q --junit j.xml --prometheus p.prom --json-file r.json
	[ "$status" -eq 0 ]
	cat j.xml p.prom
	grep -q '<testcase classname="rtla.timerlat.top.cpu0" name="measured"' j.xml
	run ! grep -q '<failure' j.xml
	grep -q '^# TYPE ' p.prom
	grep -q '^rtla_noise_run_end_timestamp_seconds{tool="timerlat top",backend="tracer",host=".*"} [0-9]\+$' p.prom
	# a timer latency figure of CPU 0 (a gauge whose name says latency), in seconds
	grep -Eq '^rtla_[a-z_]*latency[a-z_]*\{cpu="0",[^}]*\} [0-9.e-]+$' p.prom
	# no osnoise "periods" for a tool that has none
	run ! grep -q '^rtla_noise_periods{cpu="0",tool="timerlat top".*} 0$' p.prom
}
