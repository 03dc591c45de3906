#!/usr/bin/env bats
# osnoise top and hwnoise on the command line: help, modes, aliases, bad input.
# (Runs against the tracer live in the VM tier, tests/kernel/.)

load helper

setup() {
	tmp=$(mktemp -d)
}

teardown() {
	rm -rf "$tmp"
}

@test "hwnoise --help: upstream's usage shape on stderr, exit 0" {
	run "$RTLA" hwnoise --help
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "rtla hwnoise: a summary of hardware-related noise (version "* ]]
	[[ $output == *"  usage: [rtla] hwnoise  [-h] [-q] [-D] [-d s] [-a us] [-p us] [-r us] [-s us] [-S us] \\"* ]]
	[[ $output == *"	  -c/--cpus cpu-list: list of cpus to run osnoise threads"* ]]
	[[ $output == *"--backend auto|tracer|sampler"* ]]
	run sh -c "'$RTLA' hwnoise --help 2>/dev/null"
	[ -z "$output" ]
}

@test "osnoise top --help and rtla help osnoise" {
	run "$RTLA" osnoise top --help
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "rtla osnoise top: a per-cpu summary of the OS noise (version "* ]]
	[[ $output == *"  usage: [rtla] osnoise [top] [-h] [-q]"* ]]
	run "$RTLA" help osnoise
	[ "$status" -eq 0 ]
	[[ $output == *"  modes:"*"top"* ]]
}

@test "an unknown osnoise mode fails with exit 1" {
	run "$RTLA" osnoise bogus
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"unknown mode 'bogus'"* ]]
}

@test "symlinks named osnoise and hwnoise behave as the commands" {
	ln -s "$RTLA" "$tmp/hwnoise"
	ln -s "$RTLA" "$tmp/osnoise"
	run "$tmp/hwnoise" --help
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "rtla hwnoise: a summary of hardware-related noise"* ]]
	run "$tmp/osnoise" top -h
	[[ ${lines[0]} == "rtla osnoise top:"* ]]
	run "$tmp/hwnoise" -c 99
	[ "$status" -eq 1 ]
	[[ $output == "Invalid -c cpu list"* ]]
}

@test "bad inputs: exit 1 and one line on stderr, before anything is touched" {
	while read -r args; do
		eval "set -- $args"
		run "$RTLA" hwnoise "$@"
		echo "hwnoise $args -> $status: $output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
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
	EOF
}

@test "the tracer backend on a kernel without the tracer: a clear error naming the option" {
	needs_root "tracefs"
	run "$RTLA" hwnoise --backend tracer -d 1s
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"CONFIG_OSNOISE_TRACER"* ]]
}

@test "osnoise and hwnoise are live-only: --sysroot is refused" {
	run "$RTLA" --sysroot "$tmp" hwnoise -d 1s
	[ "$status" -eq 1 ]
	[[ $output == *"hwnoise needs the live system"* ]]
}

@test "--json to a file that cannot be written fails before measuring" {
	run "$RTLA" hwnoise -c 0 -d 30s -q --json "$tmp/no/such/dir/run.json"
	[ "$status" -eq 1 ]
	[[ $output == *"cannot write $tmp/no/such/dir/run.json: No such file or directory"* ]]
}
