#!/usr/bin/env bats
# SMI counts with the kernel's msr driver loaded (msr.ko of the kernel
# package) and unloaded. QEMU's emulated CPU answers MSR_SMI_COUNT (0x34)
# although it calls itself AuthenticAMD, and counts each entry into SMM: a
# write to the APM control port 0xb2 (through /dev/port) raises an SMI,
# which QEMU delivers to the first CPU only. So CPU 0 counts what the test
# raises and CPU 1 stays at 0. About 25 s.

bats_require_minimum_version 1.5.0

setup_file() {
	modprobe msr
}

teardown_file() {
	modprobe -r msr || true
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# smi_of FILE: the record's smi object on one line, as
# {"available": true,"why": null,"cpus": [{"cpu": 0,"count": 3}]}
smi_of() {
	sed -n '/^  "smi": {/,/^  },\{0,1\}$/p' "$1" | sed 's/^ *//' | tr -d '\n' |
		sed 's/^"smi": //; s/,$//'
}

# raise_smis PID: an SMI every 0.2 s through the APM control port until PID ends
raise_smis() {
	while kill -0 "$1" 2>/dev/null; do
		printf '\0' | dd of=/dev/port bs=1 seek=178 count=1 conv=notrunc status=none
		sleep 0.2
	done
}

@test "msr loaded: hwnoise -J --smi records a number per CPU, 0 where no SMI came" {
	[ -c /dev/cpu/0/msr ]
	"$RTLA" hwnoise -c 0-1 -d 2s -J --smi >r.json
	smi_of r.json
	smi_of r.json | grep -Eqx '\{"available": true,"why": null,"cpus": \[\{"cpu": 0,"count": [0-9]+\},\{"cpu": 1,"count": [0-9]+\}\]\}'

}

@test "SMIs raised during the run: counted on CPU 0, the footer, a line on stderr, smi_count>0 fails the gate" {
	"$RTLA" hwnoise -c 0 -d 3s -q --smi --fail-if 'smi_count>0' --json-file r.json >out 2>err &
	raise_smis $!
	status=0
	wait $! || status=$?
	cat out err
	[ "$status" -eq 2 ]
	grep -Eqx 'SMIs on CPU 0 during the run: [1-9][0-9]*' out
	grep -Eq '^rtla hwnoise: warning: [1-9][0-9]* SMIs? on 1 of the measured CPUs during the run' err
	grep -Eqx 'rtla hwnoise: FAILED: cpu 0 smi_count [1-9][0-9]* > 0; 0 of 1 CPUs passed' err
	n=$(sed -n 's/^SMIs on CPU 0 during the run: //p' out)
	smi_of r.json
	[ "$(smi_of r.json)" = '{"available": true,"why": null,"cpus": [{"cpu": 0,"count": '"$n"'}]}' ]
	grep -q '"verdict": "failed"' r.json
	grep -qx "        \"value\": $n," r.json
}

@test "no SMI on CPU 1: timerlat top's gate passes, the footer says 0, no line on stderr" {
	"$RTLA" timerlat top -c 1 -d 2s -q --smi --fail-if 'smi_count>0' >out 2>err &
	raise_smis $!
	status=0
	wait $! || status=$?
	cat out err
	[ "$status" -eq 0 ]
	[ "$(tail -1 out)" = "SMIs on CPU 1 during the run: 0" ]
	run ! grep -q 'SMIs on 1' err
	grep -qx 'rtla timerlat top: passed: 1 criterion on 1 CPU' err
}

@test "without --smi the table is upstream's; the SMIs only in the record" {
	"$RTLA" osnoise top -c 0 -d 2s -q --json-file r.json >out 2>err &
	raise_smis $!
	wait $!
	cat out err
	run ! grep -q SMI out
	[ "$(wc -l <out)" -eq 4 ]
	smi_of r.json
	smi_of r.json | grep -Eqx '\{"available": true,"why": null,"cpus": \[\{"cpu": 0,"count": [1-9][0-9]*\}\]\}'
}

@test "msr unloaded: the reason on stderr with --smi, null counts in the record" {
	modprobe -r msr
	[ ! -e /dev/cpu/0/msr ]
	"$RTLA" hwnoise -c 0 -d 2s -J --smi >r.json 2>err
	cat err
	grep -qx 'rtla hwnoise: warning: --smi: no SMI counts: no msr driver (/dev/cpu/0/msr missing)' err
	smi_of r.json
	[ "$(smi_of r.json)" = '{"available": false,"why": "no msr driver (/dev/cpu/0/msr missing)","cpus": [{"cpu": 0,"count": null}]}' ]
	run --separate-stderr "$RTLA" hwnoise -c 0 -d 2s -q --fail-if 'smi_count>0'
	[ "$status" -eq 1 ]
	[ "$stderr" = "rtla hwnoise: --fail-if smi_count cannot be judged: no msr driver (/dev/cpu/0/msr missing)" ]
}
