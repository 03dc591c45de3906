#!/usr/bin/env bats
# osnoise top and hwnoise on the command line: help, modes, aliases, bad input.
# (Runs against the tracer live in the VM tier, tests/kernel/.)

load helper
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
	[[ $output == *"  usage: [rtla] hwnoise  [-h] [-q] [-D] [-d s] [-a us] [-p us] [-r us] [-s us] [-S us] \\"* ]]
	[[ $output == *"	  -c/--cpus cpu-list: list of cpus to run osnoise threads"* ]]
	[[ $output == *"--backend auto|tracer|sampler"* ]]
	[[ $output == *"	  -J/--json: "* ]]
	[[ $output == *"	     --json-file FILE: "* ]]
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

@test "an unknown osnoise mode fails with exit 1" {
	run --separate-stderr "$RTLA" osnoise bogus
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	# the modes listed are top and any that come after it (hist)
	[[ $stderr =~ ^rtla\ osnoise:\ unknown\ mode:\ \'bogus\'\ \(modes:\ top(,\ [a-z]+)*\)$ ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "symlinks named osnoise and hwnoise behave as the commands" {
	ln -s "$RTLA" "$tmp/hwnoise"
	ln -s "$RTLA" "$tmp/osnoise"
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

@test "bad inputs: exit 1 and one line on stderr, before anything is touched" {
	cd "$tmp"
	while read -r args; do
		eval "set -- $args"
		run --separate-stderr "$RTLA" hwnoise "$@"
		echo "hwnoise $args -> $status: $stderr"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ $stderr == "rtla hwnoise: "* ]]
	done <<-'EOF'
		-c 999
		-c 1-0
		-c a
		-H x
		-d 0
		-d 10x
		-d -5
		-P f:0
		-P r:100
		-P o:20
		-P d:2ms:1ms
		-P x:1
		-p 10000001
		-p abc
		-r 99
		-r 2000000 -p 1000000
		-p 500000
		-e
		-e ''
		-e :x
		--filter x
		--trigger x
		--on-threshold bogus
		--on-end signal,num=10
		--on-end signal,pid=1
		--on-end shell
		--on-threshold trace,fil=x
		-T -1
		-s abc
		-S 1.5
		--warm-up -1
		--trace-buffer-size 1x
		--backend gpu
		--no-such-option
		stray-argument
		--json run.json
		--json-file -q
	EOF
	[ ! -e run.json ]
	[ ! -e ./-q ]
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
	start=$SECONDS
	run --separate-stderr "$RTLA" hwnoise -c 0 -d 30s -q --json-file "$tmp/no/such/dir/run.json"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ $((SECONDS - start)) -lt 20 ]
	# (a kernel without the tracer says first that the sampler measures)
	[ "${stderr_lines[-1]}" = "rtla hwnoise: --json-file: $tmp/no/such/dir/run.json: No such file or directory" ]
}
