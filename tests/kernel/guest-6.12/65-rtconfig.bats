# The real-time configuration of the measured CPUs in a guest booted without
# isolcpus/nohz_full (its twin, 66-rtconfig-isolated.bats, boots with them):
# the audit of rtla features -c, an interrupt moved onto the measured CPU,
# and --require refusing, recording "misconfigured" and passing on the
# real osnoise tracer. About 15 s of guest time.

load /vm/lib/noise
bats_require_minimum_version 1.5.0

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

# row ITEM: the item's line of rtla features -c 1, raw, its blanks unescaped
row() {
	"$RTLA" features -c 1 --raw -n -o ITEM,VERDICT,VALUE | grep "^$1 " | sed 's/\\x20/ /g'
}

@test "rtconfig: without isolcpus CPU 1 is not isolated nor nohz_full; the kernel is PREEMPT_RT" {
	run "$RTLA" features -c 1 --raw -n -o ITEM,VERDICT
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'preempt_rt ok' <<<"$output"
	grep -qx 'isolated bad' <<<"$output"
	grep -qx 'nohz_full bad' <<<"$output"
	grep -qx 'rcu_nocbs bad' <<<"$output"
	grep -qx 'timer_migration bad' <<<"$output"
}

@test "rtconfig: an interrupt moved onto the measured CPU is reported by number, name and CPU" {
	# the results port, ttyS1: every line of TAP written to it is an interrupt
	irq=$(awk '$NF == "ttyS1" { sub(":", "", $1); print $1 }' /proc/interrupts)
	echo "ttyS1 is irq $irq"
	[ -n "$irq" ]
	saved=$(cat "/proc/irq/$irq/smp_affinity_list")
	echo "$saved" >"$BATS_TEST_TMPDIR/saved"
	echo 0 >"/proc/irq/$irq/smp_affinity_list"
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		echo "# provoking irq $irq" >&3
		if [ "$(cat "/proc/irq/$irq/effective_affinity_list")" = 0 ]; then break; fi
		sleep 0.3
	done
	run row device_irqs
	echo "on CPU 0: $output"
	[[ $output != *" $irq ttyS1 on 1"* ]]
	echo 1 >"/proc/irq/$irq/smp_affinity_list"
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		echo "# provoking irq $irq" >&3
		if [ "$(cat "/proc/irq/$irq/effective_affinity_list")" = 1 ]; then break; fi
		sleep 0.3
	done
	echo "effective: $(cat "/proc/irq/$irq/effective_affinity_list")"
	run row device_irqs
	echo "on CPU 1: $output"
	echo "$saved" >"/proc/irq/$irq/smp_affinity_list"
	[[ $output == "device_irqs bad "*"$irq ttyS1 on 1"* ]]
}

@test "rtconfig: --require isolated refuses the run, says which and why, exit 2, nothing borrowed" {
	before=$(snapshot)
	run "$RTLA" osnoise top --backend tracer -c 1 -d 2s -q --require rt,isolated \
		--json-file r.json
	echo "$output"
	[ "$status" -eq 2 ]
	grep -qx 'rtla osnoise top: --require isolated does not hold on CPUs 1 (bad): isolated CPUs: none' <<<"$output"
	grep -q 'rtla osnoise top: not started: ' <<<"$output"
	run ! grep -q 'require rt ' <<<"$output"
	[ ! -e r.json ]
	assert_state_unchanged "$before"
}

@test "rtconfig: --on-misconfig record runs, the verdict misconfigured with the reason, exit 2" {
	run "$RTLA" hwnoise --backend tracer -c 1 -d 2s -q --require nohz_full \
		--on-misconfig record --json-file r.json --junit j.xml --prometheus p.prom
	echo "$output"
	[ "$status" -eq 2 ]
	grep -q 'warning: --require nohz_full does not hold on CPUs 1' <<<"$output"
	grep -Eq "^ +1 #" <<<"$output"
	grep -q '"verdict": "misconfigured"' r.json
	grep -q '"reason": "nohz_full CPUs: none"' r.json
	grep -q '"on_misconfig": "record"' r.json
	grep -q '<failure type="latency gate" message="misconfigured: nohz_full is bad">nohz_full CPUs: none</failure>' j.xml
	grep -q '^rtla_rt_config_requirements_met{tool="hwnoise",backend="tracer",host=".*"} 0$' p.prom
}

@test "rtconfig: --require rt passes on the RT kernel; every record carries the block" {
	run "$RTLA" osnoise top --backend tracer -c 1 -d 2s -q --require rt -J
	[ "$status" -eq 0 ]
	grep -q '"verdict": "passed"' <<<"$output"
	grep -q '"unmet": \[\]' <<<"$output"
	grep -q '"item": "device_irqs"' <<<"$output"
	run "$RTLA" osnoise top -c 1 -d 1s -q --require bogus
	[ "$status" -eq 1 ]
	[ "$output" = "rtla osnoise top: Invalid --require: unknown requirement 'bogus'" ]
}
