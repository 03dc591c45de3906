# The live view on a terminal (script(1) gives rtla a pty): on the real
# tracer, hwnoise redraws the table, reads each CPU's buffer as its period
# lands while waiting for a key, and q ends the run as Ctrl-C does.

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
	export TERM=xterm
}

# did the last run's timeout end it? coreutils' timeout exits 124; this
# guest's (busybox) sends PROG SIGTERM and leaves its status, 143
timed_out() {
	[ "$status" -eq 124 ] || [ "$status" -eq 143 ]
}

@test "hwnoise live view: the table on the terminal, -d ends it with exit 0, state restored" {
	before=$(snapshot)
	run timeout 60 script -qfc "$RTLA hwnoise -c 1 -d 3s" /dev/null
	echo "$output" | tr -d '\033' | tail -5
	! timed_out || { echo "hwnoise -d 3s did not end within 60 s"; false; }
	[ "$status" -eq 0 ]
	[[ $output == *"press q to quit"* ]]
	[[ $output == *"Hardware-related Noise"* ]]
	[[ $output == *"  1 #3 "* ]]
	assert_state_unchanged "$before"
}

@test "hwnoise live view: q ends the run at once, with the final table and exit 0" {
	before=$(snapshot)
	# -d 50s: only q (sent at 4 s) ends it sooner; timeout 40 is the hang guard
	run timeout 40 bash -c "(sleep 4; printf q) | script -qfc '$RTLA hwnoise -c 1 -d 50s' /dev/null"
	echo "$output" | tr -d '\033' | tail -5
	! timed_out || { echo "hwnoise did not end within 40 s (q was sent at 4 s)"; false; }
	[ "$status" -eq 0 ]
	[[ $output == *"CPU Period       Runtime"* ]]
	assert_state_unchanged "$before"
}
