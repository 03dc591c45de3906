# The guests' tools beside rtla: rt-tests' hwlatdetect (with its python3) on
# the real hwlat tracer, and the kernel's own msr driver, not loaded at boot,
# loadable by a test, reading QEMU's SMI count.

bats_require_minimum_version 1.5.0
load /vm/lib/msr

T=/sys/kernel/tracing

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	msr_unload
	# hwlatdetect leaves tracing off and the detector's width and window
	# as it set them
	echo nop >"$T/current_tracer"
	echo 500000 >"$T/hwlat_detector/width"
	echo 1000000 >"$T/hwlat_detector/window"
	echo 0 >"$T/tracing_thresh"
	echo 1 >"$T/tracing_on"
}

@test "rt-tests: hwlatdetect, cyclictest, oslat and rdmsr on PATH, python3 runs" {
	[ "$(command -v hwlatdetect)" = /usr/sbin/hwlatdetect ]
	[ "$(command -v rdmsr)" = /usr/sbin/rdmsr ]
	run -0 python3 -c 'import sys; print(sys.version_info[:2] >= (3, 11), sys.prefix)'
	[ "$output" = "True /opt/rt-tests" ]
	run cyclictest --help
	[[ $output == *"cyclictest V "* ]]
	run oslat --help
	[[ $output == *"oslat V "* ]]
}

@test "msr.ko: not loaded at boot; modprobe gives /dev/cpu/N/msr and MSR_SMI_COUNT, an SMI counts on CPU 0" {
	[ ! -e /sys/module/msr ]
	[ ! -e /dev/cpu/0/msr ]
	msr_load
	[ -c /dev/cpu/0/msr ]
	[ -c /dev/cpu/1/msr ]
	before=$(msr_read 0 $MSR_SMI_COUNT)
	[ "$before" -ge 1 ]
	run -0 msr_read 1 $MSR_SMI_COUNT
	[ "$output" -eq 0 ]
	run -0 rdmsr -p 0 -u $MSR_SMI_COUNT
	[ "$output" -eq "$before" ]
	smi_raise 2
	run -0 msr_read 0 $MSR_SMI_COUNT
	[ "$output" -eq $((before + 2)) ]
	rmmod msr
	[ ! -e /dev/cpu/0/msr ]
	[ ! -e /sys/module/msr ]
}

@test "msr.ko loads with insmod from its path too, and rmmod unloads it" {
	insmod "$MSR_KO"
	[ -c /dev/cpu/0/msr ]
	rmmod msr
	[ ! -e /dev/cpu/0/msr ]
}

@test "hwlatdetect runs on the hwlat tracer, prints its summary, counts an SMI of its run" {
	grep -qw hwlat "$T/available_tracers"
	msr_load
	# one SMI once hwlatdetect has read the counts it starts from (it then
	# takes the tracer) and before it reads them again at its end
	(
		for ((i = 0; i < 100; i++)); do
			if [ "$(cat "$T/current_tracer")" = hwlat ]; then
				smi_raise
				exit
			fi
			sleep 0.1
		done
	) &
	# exit status 1: under TCG the largest gap is above the 1 us threshold
	run hwlatdetect --duration=3 --threshold=1 --window=100000 --width=50000
	wait
	echo "$output"
	[ "$status" -le 1 ]
	[[ $output == *"detector: tracer"* ]]
	[[ $output == *"Sample window:      100000us"* ]]
	[[ $output == *"Sample width:      50000us"* ]]
	[[ $output =~ $'\n'"Max Latency: "([0-9]+us|Below\ threshold)$'\n' ]]
	[[ $output =~ $'\n'"Samples recorded: "[0-9]+$'\n' ]]
	[[ $output =~ $'\n'"Samples exceeding threshold: "[0-9]+$'\n' ]]
	[[ $output == *$'\n'"1 SMIs occured on cpu 0"$'\n'* ]]
	[[ $output == *$'\n'"SMIs during run: 1"$'\n'* ]]
	[ "$(cat "$T/current_tracer")" = nop ]
}
