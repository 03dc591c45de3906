#!/usr/bin/env bats
# osnoise top and hwnoise on the command line: help, modes, aliases, bad input.
# (Runs against the tracer live in the VM tier, tests/kernel/.)

load ../lib/helper
bats_require_minimum_version 1.5.0

setup() {
	tmp=$(mktemp -d)
}

teardown() {
	rm -rf "$tmp"
}

@test "hwnoise --help: upstream's usage shape on stdout, exit 0" {
	run --separate-stderr "$RTLA" hwnoise --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ ${lines[0]} == "rtla hwnoise: a summary of hardware-related noise (version "* ]]
	# upstream's bytes: its empty mode leaves two spaces before [-h]
	[[ $output == *"  usage: [rtla] hwnoise  [-h] [-q] [-D] [-d s] [-a us] [-p us] [-r us] [-s us] [-S us] \\"* ]]
	[[ $output == *"	  -c/--cpus cpu-list: list of cpus to run osnoise threads"* ]]
	[[ $output == *"--backend auto|tracer|sampler"* ]]
	[[ $output == *"	  -J/--json: "* ]]
	[[ $output == *"	     --json-file FILE: "* ]]
	# upstream's hwnoise has no hist; ours says so after upstream's lines
	[ "${lines[-1]}" = "  rtla hwnoise hist [-h] ...: the same noise as a per-cpu histogram (not in upstream rtla)" ]
	help_out=$output
	run --separate-stderr "$RTLA" help hwnoise
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "$help_out" ]
}

@test "osnoise top --help and rtla help osnoise" {
	run --separate-stderr "$RTLA" osnoise top --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ ${lines[0]} == "rtla osnoise top: a per-cpu summary of the OS noise (version "* ]]
	[[ $output == *"  usage: [rtla] osnoise [top] [-h] [-q]"* ]]
	run --separate-stderr "$RTLA" help osnoise
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ $output == *"  modes:"*"top"* ]]
	help_out=$output
	run --separate-stderr "$RTLA" osnoise --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "$help_out" ]
}

@test "an unknown osnoise mode is the one unknown-verb line, exit 1" {
	run --separate-stderr "$RTLA" osnoise bogus
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	# the verbs listed are top and any that come after it (hist)
	[[ $stderr =~ ^rtla\ osnoise:\ unknown\ verb:\ \'bogus\'\ \(verbs:\ top(,\ [a-z]+)*\)$ ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "symlinks named osnoise, hwnoise and timerlat behave as the commands" {
	ln -s "$RTLA" "$tmp/hwnoise"
	ln -s "$RTLA" "$tmp/osnoise"
	ln -s "$RTLA" "$tmp/timerlat"
	run --separate-stderr "$tmp/timerlat" hist -h
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ ${lines[0]} == "rtla timerlat hist: a per-cpu histogram of the timer latency"* ]]
	run --separate-stderr "$tmp/timerlat" -p 2000000
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla timerlat: Period longer than 1 s: 2000000 us" ]
	run --separate-stderr "$tmp/hwnoise" --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ ${lines[0]} == "rtla hwnoise: a summary of hardware-related noise"* ]]
	run --separate-stderr "$tmp/osnoise" top -h
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ ${lines[0]} == "rtla osnoise top:"* ]]
	run --separate-stderr "$tmp/hwnoise" -V
	[ "$status" -eq 0 ]
	[ "$output" = "rtla $(cat "$BATS_TEST_DIRNAME/../../VERSION")" ]
	run --separate-stderr "$tmp/hwnoise" -c 99999
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ $stderr == "rtla hwnoise: Invalid -c cpu list: '99999': "* ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
}

# Each row: the arguments, and the start of the message after the prefix,
# which names the option, the value and what is wrong with it (a valid
# command also ends in one line and exit 1 when it is not root: the words
# tell the refusal from that). As root a row that is not refused would
# measure until stopped: timeout ends it, and the row fails saying so.
@test "bad inputs: exit 1 and one line on stderr naming the fault, before anything is touched" {
	cd "$tmp"
	while IFS='|' read -r args want; do
		eval "set -- $args"
		run --separate-stderr timeout 20 "$RTLA" hwnoise "$@"
		echo "hwnoise $args -> $status: '$stderr' (want 'rtla hwnoise: $want')"
		if [ "$status" -eq 124 ]; then
			echo "hwnoise $args: still running after 20 s: it was not refused"
		fi
		[ -n "$want" ]
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ $stderr == "rtla hwnoise: $want"* ]]
	done <<-'EOF'
		-c 999|Invalid -c cpu list: '999': CPU 999 does not exist
		-c 1-0|Invalid -c cpu list: '1-0': reversed range 1-0
		-c a|Invalid -c cpu list: 'a': expected a CPU number at 'a'
		-H x|Invalid -H house keeping cpu list: 'x': expected a CPU number at 'x'
		-d 0|Invalid -d duration: '0': duration must be greater than zero
		-d 10x|Invalid -d duration: '10x': unknown unit 'x' (use s, m, h or d)
		-d -5|Invalid -d duration: '-5': not a duration
		-P f:0|Invalid -P priority: 'f:0': real-time priority must be a number in [1, 99]
		-P r:100|Invalid -P priority: 'r:100': real-time priority must be a number in [1, 99]
		-P o:20|Invalid -P priority: 'o:20': nice must be a number in [-20, 19]
		-P d:2ms:1ms|Invalid -P priority: 'd:2ms:1ms': deadline runtime is longer than the period
		-P x:1|Invalid -P priority: 'x:1': unknown policy 'x' (use o, r, f or d)
		-p 10000001|Period longer than 10 s: 10000001 us
		-p abc|Invalid -p period: 'abc' is not a valid number
		-r 99|Runtime shorter than 100 us: 99 us
		-r 2000000 -p 1000000|Runtime longer than the period: runtime 2000000 us > period 1000000 us
		-p 500000|Runtime longer than the period: runtime 750000 us > period 500000 us (the default runtime; set -r)
		-e|option needs an argument: -e
		-e ''|Invalid -e event: '': expected sys[:event]
		-e :x|Invalid -e event: ':x': expected sys[:event]
		--filter x|--filter requires a previous -e: 'x'
		--trigger x|--trigger requires a previous -e: 'x'
		--on-threshold bogus|Invalid action: 'bogus': unknown action (use trace, signal, shell or continue)
		--on-end signal,num=10|Invalid action: 'signal,num=10': signal needs num=N and pid=P|parent
		--on-end signal,pid=1|Invalid action: 'signal,pid=1': signal needs num=N and pid=P|parent
		--on-end shell|Invalid action: 'shell': shell needs command=CMD
		--on-threshold trace,fil=x|Invalid action: 'trace,fil=x': trace takes only file=FILE
		-T -1|Invalid -T threshold: '-1': microseconds cannot be negative
		-s abc|Invalid -s value: 'abc' is not a valid number
		-S 1.5|Invalid -S value: '1.5' is not a valid number
		--warm-up -1|Invalid --warm-up seconds: '-1' is out of range [0, 31536000]
		--trace-buffer-size 1x|Invalid --trace-buffer-size: '1x' is not a valid number
		--backend gpu|Invalid --backend: 'gpu': use auto, tracer or sampler
		--no-such-option|unknown option: --no-such-option
		stray-argument|unknown verb: 'stray-argument' (verbs: hist)
		-q stray-argument|unexpected argument: stray-argument
		--json run.json|unexpected argument: run.json
		--json-file -q|--json-file: file name starts with '-': '-q' (for a file of that name write ./-q)
		-t=-|-t: '-': standard output holds the table: name a file
		--trace=-x|--trace: file name starts with '-': '-x' (for a file of that name write ./-x)
		-t=|-t: empty file name
		--trace=no/such/dir/t.txt|--trace: no/such/dir/t.txt: No such file or directory
	EOF
	[ ! -e run.json ]
	[ ! -e ./-q ]
	[ ! -e ./- ]
	[ ! -e ./-x ]
}

@test "the tracer backend on a kernel without the tracer: a clear error naming the option" {
	needs_root "tracefs"
	run --separate-stderr "$RTLA" hwnoise --backend tracer -d 1s
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "rtla hwnoise: "*"CONFIG_OSNOISE_TRACER"* ]]
}

@test "osnoise and hwnoise are live-only: --sysroot is refused" {
	run --separate-stderr "$RTLA" --sysroot "$tmp" hwnoise -d 1s
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "rtla hwnoise: --sysroot "*": this command needs the live system" ]]
}

@test "--json-file to a file that cannot be written fails before measuring" {
	run --separate-stderr timeout 20 "$RTLA" hwnoise -c 0 -d 30s -q --json-file "$tmp/no/such/dir/run.json"
	if [ "$status" -eq 124 ]; then
		echo "still measuring after 20 s of -d 30s: the --json-file destination was not checked first"
		false
	fi
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	# (a kernel without the tracer says first that the sampler measures)
	[ "${stderr_lines[-1]}" = "rtla hwnoise: --json-file: $tmp/no/such/dir/run.json: No such file or directory" ]
}
