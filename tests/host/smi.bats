#!/usr/bin/env bats
# SMI counts on this machine, where they cannot be read (no msr driver here,
# and rtla never loads it): every tool of the noise family, on the sampler
# backend, records null counts with one reason; --smi says that reason on
# stderr and leaves the tables as upstream's; without --smi nothing is said.
# Needs root and tracefs. The VM tier tests counts that can be read.

load ../lib/helper
load lib/sampler
bats_require_minimum_version 1.5.0

setup() {
	needs_tracefs
	smi_reason
	T=$BATS_TEST_TMPDIR
}

# record FILE TOOL: the record's smi object: not available, SMI_WHY, CPU 0 null
record_says_why() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["command"] == sys.argv[2], d["command"]
assert d["smi"] == {"available": False, "why": sys.argv[3], "cpus": [{"cpu": 0, "count": None}]}, d["smi"]' \
		"$1" "$2" "$SMI_WHY"
}

@test "hwnoise --smi: the table as without it, the reason on stderr, null counts in the record" {
	run --separate-stderr "$RTLA" hwnoise --backend sampler -c 0 -d 1s -q --smi --json-file "$T/r.json"
	echo "status $status; stdout: $output; stderr: $stderr"
	[ "$status" -eq 0 ]
	grep -qx "rtla hwnoise: warning: --smi: no SMI counts: $SMI_WHY" <<<"$stderr"
	[ "$(grep -c SMI <<<"$stderr")" -eq 1 ]
	# upstream's header and one row, nothing below
	[ "${#lines[@]}" -eq 4 ]
	run ! grep -q SMI <<<"$output"
	record_says_why "$T/r.json" hwnoise
}

@test "without --smi: no word of SMIs on stdout or stderr, the reason in the record" {
	run --separate-stderr "$RTLA" osnoise top --backend sampler -c 0 -d 1s -q --json-file "$T/r.json"
	echo "status $status; stdout: $output; stderr: $stderr"
	[ "$status" -eq 0 ]
	run ! grep -qi smi <<<"$output$stderr"
	record_says_why "$T/r.json" "osnoise top"
}

@test "every tool of the family records the SMIs, -J and --smi together: the record alone on stdout" {
	for tool in "osnoise hist" "hwnoise hist" "timerlat top" "timerlat hist"; do
		echo "$tool"
		# shellcheck disable=SC2086
		"$RTLA" $tool --backend sampler -c 0 -d 1s -J --smi >"$T/r.json" 2>"$T/err"
		cat "$T/err"
		record_says_why "$T/r.json" "$tool"
		grep -qx "rtla $tool: warning: --smi: no SMI counts: $SMI_WHY" "$T/err"
	done
}

@test "timerlat hist --smi: the histogram as without it" {
	run --separate-stderr "$RTLA" timerlat hist --backend sampler -c 0 -d 1s --smi
	echo "status $status; stdout: $output; stderr: $stderr"
	[ "$status" -eq 0 ]
	grep -q '^max:' <<<"$output"
	run ! grep -q SMI <<<"$output"
	grep -qx "rtla timerlat hist: warning: --smi: no SMI counts: $SMI_WHY" <<<"$stderr"
}
