# osnoise top and hwnoise print upstream's table: compared with the peer (rtla 6.12)
# run with the same options on the same kernel.

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

@test "hwnoise -q: header and columns identical to the peer's, rows in upstream's format" {
	run "$RTLA_PEER" hwnoise -c 0 -d 2s -q
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" hwnoise -c 0 -d 2s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "${peer[0]}" ]
	[[ ${lines[1]} =~ ^duration:\ {3}0\ 00:00:0[23]\ \|\ time\ is\ in\ us$ ]]
	[ "${lines[2]}" = "${peer[2]}" ]
	[[ ${lines[3]} =~ $HW_ROW ]]
	[[ ${peer[3]} =~ $HW_ROW ]]
	[ "${#lines[@]}" -eq 4 ]
}

@test "osnoise top -q: header and columns identical to the peer's, rows in upstream's format" {
	run "$RTLA_PEER" osnoise top -c 0-1 -d 2s -q
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" osnoise top -c 0-1 -d 2s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "${peer[0]}" ]
	[ "${lines[2]}" = "${peer[2]}" ]
	[[ ${lines[3]} =~ $OS_ROW ]]
	[[ ${lines[4]} =~ $OS_ROW ]]
	[[ ${lines[3]} == "  0 #"* && ${lines[4]} == "  1 #"* ]]
}

@test "osnoise without a mode, or with an option first, means top" {
	run "$RTLA" osnoise -c 1 -d 2s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == *"Operating System Noise"* ]]
	[[ ${lines[3]} =~ $OS_ROW ]]
}

@test "without -q, each refresh clears the screen and repeats the table" {
	run "$RTLA" hwnoise -c 1 -d 3s
	[ "$status" -eq 0 ]
	clears=$(grep -o $'\033c' <<<"$output" | wc -l)
	echo "clears: $clears"
	[ "$clears" -ge 2 ]
	run "$RTLA" hwnoise -c 1 -d 2s -D
	[[ $output != *$'\033c'* ]]
}

@test "-J writes the run record: kernel, backend, options, rows, verdict" {
	run "$RTLA" hwnoise -c 1 -d 2s -q -T 1 -J
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output != *"Hardware-related Noise"* ]]
	[[ $output == *'"name": "rtla-hwnoise",'* ]]
	[[ $output == *'"tool": "rtla",'* ]]
	[[ $output == *'"command": "hwnoise",'* ]]
	[[ $output == *'"kernel": "'"$(uname -r)"'"'* ]]
	[[ $output == *'"backend": "tracer"'* ]]
	[[ $output == *'"threshold_us": 1'* ]]
	[[ $output == *'"cpus": "1"'* ]]
	[[ $output == *'"cpu": 1,'* ]]
	[[ $output =~ \"periods\":\ [12], ]]
	[[ $output == *'"verdict": "passed"'* ]]
	[[ $output == *'"stop": null'* ]]
}
