# rt-tests' hwlatdetect and rtla hwlat, one after the other in the same guest
# with the same settings (threshold, window, width, mode, CPU, duration):
# both end with the same three summary lines, rtla's record carries those
# settings, and rtla gives back every setting it found. hwlatdetect runs the
# tracer at the top level and restores none of its writes but the threshold
# (the kernel puts tracing_thresh back when the tracer stops): what it left
# changed is printed, and the teardown puts it back. Both outputs are printed
# too, side by side in the TAP output.
#
# 6.12 only: the comparison is of the two programs, not of the kernels
# (75-hwlat.bats runs rtla hwlat on both).
#
# Budget: about 15 s of guest time (two 3 s runs and python's start).

load /vm/lib/noise

# the settings either program may touch: noise.bash's snapshot, the top
# level's CPU mask (hwlatdetect --cpu-list writes it)
settings() {
	snapshot
	echo "tracing_cpumask=$(cat "$T/tracing_cpumask")"
}

setup() {
	command -v hwlatdetect >/dev/null ||
		skip "no hwlatdetect in this guest (tests/kernel/fetch.sh puts rt-tests' in the guests)"
	default_settings
	unusual_settings
	mask=$(cat "$T/tracing_cpumask")
	before=$(settings)
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	if [ -n "${mask:-}" ]; then echo "$mask" >"$T/tracing_cpumask"; fi
	echo 1 >"$T/tracing_on"
	default_settings
}

# the summary lines, their numbers as N
summary_shape() {
	grep -E '^(Max Latency|Samples recorded|Samples exceeding threshold): ' "$1" |
		sed -E 's/[0-9]+/N/g'
}

@test "hwlatdetect and rtla hwlat, same settings: the same summary lines; rtla's record has the settings and gives everything back" {
	# unusual_settings left the mode per-cpu: hwlatdetect runs in it, rtla is told
	run "$RTLA" hwlat -c 1 -T 10 -p 100000 -r 20000 --mode per-cpu -d 3 -q --json-file r.json
	printf '%s\n' "$output" >rtla.txt
	[ "$status" -eq 0 ]
	after_rtla=$(settings)
	run hwlatdetect --cpu-list 1 --threshold 10 --window 100000 --width 20000 --duration 3 \
		--hardlimit 10000000
	printf '%s\n' "$output" >hwlatdetect.txt
	[ "$status" -eq 0 ]
	after_hwlatdetect=$(settings)
	{
		echo "# rtla hwlat -c 1 -T 10 -p 100000 -r 20000 --mode per-cpu -d 3 -q:"
		sed 's/^/#   /' rtla.txt
		echo "# hwlatdetect --cpu-list 1 --threshold 10 --window 100000 --width 20000 --duration 3:"
		grep -v '^ts: ' hwlatdetect.txt | sed 's/^/#   /'
		echo "#   ($(grep -c '^ts: ' hwlatdetect.txt) sample lines)"
		echo "# what hwlatdetect left changed:"
		diff <(echo "$before") <(echo "$after_hwlatdetect") | sed 's/^/#   /' || true
	} >&3
	# the three lines, in the same shape and order
	[ "$(summary_shape rtla.txt | wc -l)" -eq 3 ]
	[ "$(summary_shape rtla.txt)" = "$(summary_shape hwlatdetect.txt)" ]
	# hwlatdetect ran with the settings rtla was given
	grep -q '^ *Latency threshold: 10us$' hwlatdetect.txt
	grep -Eq '^ *Sample window: +100000us$' hwlatdetect.txt
	grep -Eq '^ *Sample width: +20000us$' hwlatdetect.txt
	# rtla's record carries them
	grep -q '"cpus": "1"' r.json
	grep -q '"threshold_us": 10' r.json
	grep -q '"window_us": 100000' r.json
	grep -q '"width_us": 20000' r.json
	grep -q '"mode": "per-cpu"' r.json
	grep -q '"duration_s": 3,' r.json
	grep -q '"samples_recorded": ' r.json
	# rtla gave back every setting as it found it
	[ "$after_rtla" = "$before" ] || { diff <(echo "$before") <(echo "$after_rtla"); false; }
}
