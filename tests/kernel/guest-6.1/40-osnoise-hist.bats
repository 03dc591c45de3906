# The old kernel (6.1, no osnoise/options): osnoise hist works on the tracer
# (its samples counted by a kernel hist trigger); hwnoise hist fails cleanly.

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

@test "osnoise hist runs without osnoise/options, prints upstream's histogram and restores" {
	run "$RTLA" osnoise hist -c 0 -d 2s --json-file r.json
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# RTLA osnoise histogram" ]
	[ "${lines[1]}" = "# Time unit is microseconds (us)" ]
	[[ ${lines[2]} =~ ^#\ Duration:\ {3}0\ 00:00:0[23]$ ]]
	# the kernel's threshold here is 5 us, and TCG is noisy: CPU 0 has samples
	[ "${lines[3]}" = "Index   CPU-000" ]
	[[ ${lines[4]} =~ ^[0-9]+\ +[0-9]+\ $ ]]
	[[ $output == *$'\nover: '*$'\ncount:'*$'\nmin:  '*$'\navg:  '*$'\nmax:  '* ]]
	grep -q '"backend": "tracer"' r.json
	grep -q '"resolution_ns": 1000' r.json
	assert_state_unchanged "$before"
}

@test "hwnoise hist fails with one clear line and changes nothing" {
	run "$RTLA" hwnoise hist -c 0 -d 2s
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "rtla hwnoise hist: "*"Linux >= 6.2"* ]]
	assert_state_unchanged "$before"
}
