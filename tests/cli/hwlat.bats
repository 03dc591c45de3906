#!/usr/bin/env bats
# rtla hwlat's options: what it refuses before touching anything, and its help.
# Its runs need the kernel's hwlat tracer: tests/kernel/guest-all/75-hwlat*.bats.

load ../lib/helper
bats_require_minimum_version 1.5.0

@test "hwlat: bad options are one line naming what was wrong, exit 1, nothing on stdout" {
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086
		run --separate-stderr "$RTLA" hwlat $args
		echo "hwlat $args -> $status: '$stderr' (want '$want')"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "$stderr" = "$want" ]
	done <<'EOF_CASES'
--backend sampler -d 1|rtla hwlat: --backend sampler: hwlat has only the tracer (the kernel's hwlat tracer): for hardware noise without it use rtla hwnoise --backend sampler
-p 100 -r 200|rtla hwlat: Width longer than the window: width 200 us > window 100 us
-p 1|rtla hwlat: Invalid -p/--window: a window of 1 us leaves no width
-r 0|rtla hwlat: Invalid -r/--width: it must be greater than 0
-T 0|rtla hwlat: Invalid -T threshold: 0 would leave the threshold to the kernel's last hwlat run; give 1 or more
--mode fast|rtla hwlat: Invalid --mode: 'fast': use none, round-robin or per-cpu
--fail-if max_single_us>5|rtla hwlat: Invalid --fail-if: 'max_single_us > 5': hwlat measures hardware latencies, no max_single_us (max_latency_us, inner_max_us, outer_max_us, sample_count, exceeding_count, nmi_count, nmi_total_us)
EOF_CASES
}

@test "hwlat hist: the histogram's own checks, and the same refusals" {
	run --separate-stderr "$RTLA" hwlat hist -b 0
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla hwlat hist: Bucket size needs to be > 0 and <= 1000000" ]
	run --separate-stderr "$RTLA" hwlat hist --backend sampler
	[ "$status" -eq 1 ]
	[[ $stderr == "rtla hwlat hist: --backend sampler: hwlat has only the tracer"* ]]
}

@test "hwnoise refuses hwlat's metrics, naming the tool that has them" {
	run --separate-stderr "$RTLA" hwnoise --backend sampler -d 1 --fail-if 'max_latency_us>5'
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla hwnoise: Invalid --fail-if: 'max_latency_us > 5': max_latency_us is a hardware latency: use hwlat top or hwlat hist" ]
}

@test "hwlat --help names its verbs; top's and hist's name the window, width, threshold and mode" {
	run --separate-stderr "$RTLA" hwlat --help
	[ "$status" -eq 0 ]
	[[ $output == *"top        per-cpu hardware latency and hwlatdetect's summary"* ]]
	[[ $output == *"hist       a per-cpu histogram of the inner and outer gaps"* ]]
	for verb in top hist; do
		run --separate-stderr "$RTLA" hwlat "$verb" --help
		echo "hwlat $verb --help"
		[ "$status" -eq 0 ]
		[[ $output == *"-p/--window us:"* ]]
		[[ $output == *"-r/--width us:"* ]]
		[[ $output == *"-T/--threshold us:"* ]]
		[[ $output == *"--mode none|round-robin|per-cpu:"* ]]
		[[ $output == *"--fail-if EXPR:"* ]]
	done
}
