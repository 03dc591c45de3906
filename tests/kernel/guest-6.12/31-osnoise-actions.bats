# The trace, event and action options of osnoise top and hwnoise: what they save,
# enable and run, read back while the run is alive.

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

@test "-t with -s saves the trace when the stop hits" {
	run "$RTLA" osnoise top -c 1 -T 1 -s 1 -t mytrace.txt -d 20s -q
	echo "$output"
	[ "$status" -eq 2 ]
	[[ $output == *"  Saving trace to mytrace.txt"* ]]
	grep -q 'osnoise' mytrace.txt
}

@test "-t takes its file as -t FILE, -t=FILE, --trace=FILE; -t alone uses osnoise_trace.txt" {
	for form in "-t a.txt" "-t=b.txt" "--trace=c.txt" "--trace d.txt" "-t"; do
		run "$RTLA" osnoise top -c 1 -T 1 -s 1 $form -d 20s -q
		[ "$status" -eq 2 ]
	done
	[ -s a.txt ]
	[ -s b.txt ]
	[ -s c.txt ]
	[ -s d.txt ]
	[ -s osnoise_trace.txt ]
}

@test "-a sets the stop, a 1 us threshold and the trace file" {
	run "$RTLA" osnoise top -c 1 -a 1 -d 20s -q
	echo "$output"
	[ "$status" -eq 2 ]
	[[ $output == *"  Saving trace to osnoise_trace.txt"* ]]
	[ -s osnoise_trace.txt ]
}

@test "-e with --filter and a hist --trigger: the event is traced and its hist saved" {
	run "$RTLA" osnoise top -c 1 -e osnoise:sample_threshold --filter 'duration > 0' \
		--trigger 'hist:keys=cpu' -e sched:sched_switch -d 2s -q --on-end \
		"shell,command=cat $T/instances/rtla_osnoise_trace_*/events/osnoise/sample_threshold/filter > $BATS_TEST_TMPDIR/filter.txt"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q 'duration > 0' filter.txt
	[[ $output == *"  Saving event osnoise:sample_threshold hist to osnoise_sample_threshold_hist.txt"* ]]
	grep -q 'hitcount' osnoise_sample_threshold_hist.txt
}

@test "--trace-buffer-size sets the record instance's buffer; --warm-up delays collection" {
	run "$RTLA" hwnoise -c 1 -t --trace-buffer-size 1024 --warm-up 1 -d 2s -q --on-end \
		"shell,command=cat $T/instances/rtla_osnoise_trace_*/buffer_size_kb > $BATS_TEST_TMPDIR/buf.txt"
	echo "$output"
	[ "$status" -eq 0 ]
	# the kernel rounds the size up to whole sub-buffers
	[ "$(cat buf.txt)" -ge 1024 ]
	[ "$(cat buf.txt)" -lt 1100 ]
	[[ ${lines[3]} =~ $HW_ROW ]]
}

@test "--on-threshold signal,num=N,pid=parent signals rtla's parent" {
	got=0
	trap 'got=1' USR1
	status=0
	"$RTLA" osnoise top -c 1 -T 1 -s 1 -d 20s -q --on-threshold signal,num=10,pid=parent >/dev/null ||
		status=$?
	trap - USR1
	[ "$status" -eq 2 ]
	[ "$got" -eq 1 ]
}

@test "--on-threshold continue keeps measuring after a stop; --on-end runs once" {
	run "$RTLA" osnoise top -c 1 -T 1 -s 1 -d 10s -q \
		--on-threshold "shell,command=echo hit >> $BATS_TEST_TMPDIR/hits.txt" \
		--on-threshold continue --on-end "shell,command=echo end >> $BATS_TEST_TMPDIR/end.txt"
	echo "$output"
	cat hits.txt
	[ "$(wc -l <hits.txt)" -ge 2 ]
	[ "$(wc -l <end.txt)" -eq 1 ]
}

@test "a failing action stops the chain" {
	run "$RTLA" osnoise top -c 1 -T 1 -s 1 -d 20s -q --on-threshold "shell,command=false" \
		--on-threshold "shell,command=touch $BATS_TEST_TMPDIR/never"
	[ "$status" -eq 2 ]
	[ ! -e never ]
}

@test "-D prints debug messages" {
	run "$RTLA" hwnoise -c 1 -d 1s -q -D
	[ "$status" -eq 0 ]
	[[ $output == *"debug:"* ]]
}
