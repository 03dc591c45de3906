# Latency gates on the real osnoise tracer: a gate under the guest's noise
# fails (top and hist), one above it passes and leaves the kernel as it was,
# and the shell gate of rtla-hwnoise(1) runs as the page has it. The JUnit
# and Prometheus files are checked by their real consumers in the host tier.

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

@test "gate: a limit below the guest's noise fails every CPU, exit 2, after the whole run" {
	run "$RTLA" hwnoise --backend tracer -c 0 -d 2s -q --fail-if 'max_single_us>0' \
		--junit j.xml --json-file r.json --prometheus p.prom
	echo "$output"
	[ "$status" -eq 2 ]
	[[ ${lines[3]} =~ $HW_ROW ]]
	grep -Eqx 'rtla hwnoise: FAILED: cpu 0 max_single_us [0-9]+ > 0; 0 of 1 CPUs passed' <<<"$output"
	grep -q '"verdict": "failed"' r.json
	grep -q '"backend": "tracer"' r.json
	grep -q '"metric": "max_single_us"' r.json
	grep -Eq '<failure type="latency gate" message="cpu 0 max_single_us [0-9]+ &gt; 0">' j.xml
	grep -q '^rtla_gate_passed{cpu="0",tool="hwnoise",backend="tracer",host=".*"} 0$' p.prom
	# no stop condition was armed: the kernel ran every period
	grep -q '"stop": null' r.json

	run "$RTLA" osnoise hist --backend tracer -c 0 -d 2s --fail-if 'p50_us>=0'
	echo "$output"
	[ "$status" -eq 2 ]
	grep -Eqx 'rtla osnoise hist: FAILED: cpu 0 p50_us [0-9]+ >= 0; 0 of 1 CPUs passed' <<<"$output"
}

@test "gate: limits above the noise pass, -c online, the kernel left as it was" {
	before=$(snapshot)
	run "$RTLA" osnoise top --backend tracer -c online -d 2s -q \
		--fail-if 'max_single_us>10s' --fail-if 'cpu_available_pct<1' -J
	[ "$status" -eq 0 ]
	grep -q '"verdict": "passed"' <<<"$output"
	grep -q "\"cpus\": \"$(cat /sys/devices/system/cpu/online)\"" <<<"$output"
	grep -q '"failures": \[\]' <<<"$output"
	assert_state_unchanged "$before"
}

@test "gate: the shell gate of rtla-hwnoise(1) on the tracer" {
	PATH="$(dirname "$RTLA"):$PATH" CPUS=0 DURATION=2s MAX_SINGLE_US=10000000 \
		MIN_AVAILABLE_PCT=0 run bash /vm/lib/gate.sh
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '"backend": "tracer"' results/hwnoise.json
	grep -q '<testcase classname="rtla.hwnoise.cpu0"' results/hwnoise.xml
	grep -q '^# TYPE rtla_noise_max_single_seconds gauge$' results/hwnoise.prom
}
