# The old kernel (6.1, no osnoise/options): osnoise top works; hwnoise fails cleanly.

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

@test "osnoise top runs without osnoise/options and restores" {
	run "$RTLA" osnoise top -c 0 -d 2s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == *"Operating System Noise"* ]]
	[[ ${lines[3]} =~ $OS_ROW ]]
	assert_state_unchanged "$before"
}

@test "hwnoise fails with one clear line and changes nothing" {
	run "$RTLA" hwnoise -c 0 -d 2s -q
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "rtla hwnoise: "*"Linux >= 6.2"* ]]
	assert_state_unchanged "$before"
}
