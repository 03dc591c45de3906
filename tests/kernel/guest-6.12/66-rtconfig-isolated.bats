# vm-append: isolcpus=1 nohz_full=1 rcu_nocbs=1
#
# The twin of 65-rtconfig.bats in a guest of its own, booted with CPU 1
# isolated, tickless and its RCU callbacks offloaded (the line above: see
# tests/kernel/README.md): the audit says so, and --require passes on it.
# About 8 s of guest time plus its boot.

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

@test "rtconfig isolated: CPU 1 is isolated, nohz_full and offloaded; CPU 0 is none of them" {
	run "$RTLA" features -c 1 --raw -n -o ITEM,VERDICT,VALUE
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'isolated ok isolated\\x20CPUs:\\x201\\x20(isolcpus=1)' <<<"$output"
	grep -qx 'nohz_full ok nohz_full\\x20CPUs:\\x201' <<<"$output"
	grep -q '^rcu_nocbs ok offloaded:\\x201\\x20(rcu_nocbs=1,\\x20nohz_full);' <<<"$output"
	grep -q '^workqueue ok ' <<<"$output"
	run "$RTLA" features -c 0 --raw -n -o ITEM,VERDICT
	grep -qx 'isolated bad' <<<"$output"
	grep -qx 'nohz_full bad' <<<"$output"
}

@test "rtconfig isolated: --require isolated,nohz_full,rcu_nocbs passes on CPU 1 (osnoise, timerlat)" {
	run "$RTLA" osnoise top --backend tracer -c 1 -d 2s -q --require isolated,nohz_full,rcu_nocbs \
		--json-file r.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '"verdict": "passed"' r.json
	grep -q '"unmet": \[\]' r.json
	# -k: the kernel's timerlat threads (rtla itself, and so its -u threads, stay off CPU 1)
	run "$RTLA" timerlat top -k -c 1 -d 2s -q --require isolated,nohz_full --json-file t.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '"verdict": "passed"' t.json
	grep -q '"value": "isolated CPUs: 1 (isolcpus=1)"' t.json
}
