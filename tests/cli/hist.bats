#!/usr/bin/env bats
# osnoise hist and hwnoise hist on the command line: help, verb dispatch,
# completion, bad input. (Runs on the tracer live in the VM tier, on the
# sampler in the host tier: tests/kernel/, tests/host/hist.bats.)

load ../lib/helper
bats_require_minimum_version 1.5.0

setup() {
	tmp=$(mktemp -d)
}

teardown() {
	rm -rf "$tmp"
}

@test "osnoise hist --help: upstream's usage shape and hist options, on stdout, exit 0" {
	run --separate-stderr "$RTLA" osnoise hist --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ ${lines[0]} == "rtla osnoise hist: a per-cpu histogram of the OS noise (version "* ]]
	[ "${lines[1]}" = "  usage: [rtla] osnoise hist [-h] [-D] [-d s] [-a us] [-p us] [-r us] [-s us] [-S us] \\" ]
	[ "${lines[3]}" = "	  [-c cpu-list] [-H cpu-list] [-P priority] [-b N] [-E N] [--no-header] [--no-summary] \\" ]
	# upstream's bytes, its oddity included: "[--warm-up]" without the s
	[ "${lines[4]}" = "	  [--no-index] [--with-zeros] [-C [cgroup_name]] [--warm-up]" ]
	# upstream's hist lines, between --trigger and -P, in its order
	want=$(printf '\t%s\n' \
		"     --trigger <trigger>: enable a trace event trigger to the previous -e event" \
		"  -b/--bucket-size N: set the histogram bucket size (default 1)" \
		"  -E/--entries N: set the number of entries of the histogram (default 256)" \
		"     --no-header: do not print header" \
		"     --no-summary: do not print summary" \
		"     --no-index: do not print index" \
		"     --with-zeros: print zero only entries")
	got=$(grep -A6 -- '--trigger <trigger>: ' <<<"$output")
	[ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got"); return 1; }
	# hist has no -q; ours follow upstream's
	[[ $output != *"--quiet"* ]]
	[[ $output == *"--backend auto|tracer|sampler"*"-J/--json"*"--json-file FILE"*"-V/--version"* ]]
}

@test "hwnoise hist --help, -h, rtla help, and the osnoise modes" {
	run "$RTLA" hwnoise hist --help
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "rtla hwnoise hist: a per-cpu histogram of the hardware-related noise (version "* ]]
	[[ ${lines[1]} == "  usage: [rtla] hwnoise hist [-h] [-D] [-d s]"* ]]
	# osnoise hist keeps upstream's "[--warm-up]"; hwnoise hist is ours and names the argument
	[ "${lines[4]}" = "	  [--no-index] [--with-zeros] [-C [cgroup_name]] [--warm-up s]" ]
	help=$output
	run "$RTLA" hwnoise hist -h
	[ "$output" = "$help" ]
	# without "hist", hwnoise is still top
	run "$RTLA" hwnoise --help
	[[ ${lines[0]} == "rtla hwnoise: a summary of hardware-related noise"* ]]
	run "$RTLA" osnoise --help
	[ "$status" -eq 0 ]
	[[ $output == *"     top   - prints the summary from osnoise tracer
     hist  - prints a histogram of osnoise samples
"* ]]
	run "$RTLA" help osnoise
	[[ $output == *"hist  - prints a histogram of osnoise samples"* ]]
}

@test "verb dispatch: hist takes hist's options, top and bare osnoise take top's" {
	run --separate-stderr "$RTLA" osnoise hist -q
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla osnoise hist: unknown option: -q" ]
	run --separate-stderr "$RTLA" osnoise top -b 5
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla osnoise top: unknown option: -b" ]
	run --separate-stderr "$RTLA" osnoise -E 20
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla osnoise: unknown option: -E" ]
	run --separate-stderr "$RTLA" hwnoise hist --no-index
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla hwnoise hist: no-index set and with-zeros not set - it does not make sense" ]
	run --separate-stderr "$RTLA" hwnoise top
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla hwnoise: unknown verb: 'top' (verbs: hist)" ]
	run "$RTLA" osnoise hist -V
	[ "$status" -eq 0 ]
	[[ $output == "rtla "* ]]
}

@test "the osnoise and hwnoise links dispatch hist too" {
	ln -s "$RTLA" "$tmp/hwnoise"
	ln -s "$RTLA" "$tmp/osnoise"
	run "$tmp/osnoise" hist -h
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "rtla osnoise hist:"* ]]
	run "$tmp/hwnoise" hist --help
	[[ ${lines[0]} == "rtla hwnoise hist:"* ]]
	run "$tmp/hwnoise" hist -b 0
	[ "$status" -eq 1 ]
	[[ $output == *"Bucket size needs to be > 0 and <= 1000000" ]]
}

@test "completion offers hist after osnoise and hwnoise, and hist's options after it" {
	run "$RTLA" __complete 2 rtla osnoise ''
	[ "$output" = "$(printf 'top\nhist')" ]
	run "$RTLA" __complete 2 rtla hwnoise ''
	[ "$output" = hist ]
	run "$RTLA" __complete 3 rtla osnoise hist --
	[[ $'\n'$output$'\n' == *$'\n--bucket-size\n--entries\n--no-header\n--no-summary\n--no-index\n--with-zeros\n'* ]]
	[[ $output != *--quiet* ]]
	run "$RTLA" __complete 3 rtla hwnoise hist -
	[[ $'\n'$output$'\n' == *$'\n-b\n'* && $'\n'$output$'\n' == *$'\n-E\n'* ]]
	run "$RTLA" __complete 4 rtla osnoise hist --backend ''
	[ "$output" = "$(printf 'auto\ntracer\nsampler')" ]
}

@test "bad input: upstream's words after the prefix, exit 1, one line, nothing on stdout" {
	while IFS='|' read -r args want; do
		eval "set -- $args"
		run --separate-stderr "$RTLA" osnoise hist "$@"
		echo "osnoise hist $args -> $status: '$stderr' (want '$want')"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		# a trailing * stands for the details after upstream's words
		if [[ $want == *'*' ]]; then
			[[ $stderr == "rtla osnoise hist: ${want%\*}"* ]]
		else
			[ "$stderr" = "rtla osnoise hist: $want" ]
		fi
	done <<-'EOF'
		-b 0|Bucket size needs to be > 0 and <= 1000000
		-b 1000000|Bucket size needs to be > 0 and <= 1000000
		--bucket-size=-3|Bucket size needs to be > 0 and <= 1000000
		-b 1x|Invalid -b bucket size: '1x' is not a valid number
		-E 9|Entries must be > 10 and < 9999999
		-E 10000000|Entries must be > 10 and < 9999999
		--entries abc|Invalid -E entries: 'abc' is not a valid number
		--no-index|no-index set and with-zeros not set - it does not make sense
		--no-index --no-header|no-index set and with-zeros not set - it does not make sense
		-b|option needs an argument: -b
		--entries|option needs an argument: --entries
		--with-zeros=1|option takes no argument: --with-zeros=1
		-c 99|Invalid -c cpu list: '99'*
		-p 10000001|Period longer than 10 s: 10000001 us
		extra|unexpected argument: extra
	EOF
}

@test "the boundaries upstream accepts are accepted (parsed up to the backend)" {
	# --backend tracer fails here (no osnoise tracer): past the option checks
	for args in "-b 999999" "-b 1" "-E 10" "-E 9999999" "--no-index --with-zeros"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$RTLA" osnoise hist $args --backend tracer -d 1s
		echo "osnoise hist $args -> $status: $stderr"
		[ "$status" -eq 1 ]
		[[ $stderr != *"Bucket size"* && $stderr != *"Entries must"* && $stderr != *"no-index"* ]]
		[[ $stderr == *"osnoise"* ]]
	done
}
