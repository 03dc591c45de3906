#!/usr/bin/env bats
# rtla parport on the real pata_parport driver (built by modules-build.sh),
# two ISA parallel ports from QEMU, and the test protocol rtla_ppfake, which
# plays an adapter with a 4 MiB disk. The tests follow one another: modules
# are loaded as the file goes on, and everything is unloaded at its end.

load /vm/lib/parport

setup_file() {
	pp_have_modules || {
		echo "# the pata_parport modules are missing from /vm/modules (tests/kernel/modules-build.sh failed?)" >&3
		return 1
	}
	pp_unload_all
}

teardown_file() {
	echo 0 >/sys/module/pata_parport/parameters/probe 2>/dev/null || true
	# bounded: after the last test the driver may still hold a write (its
	# delete) that never returns; the guest is discarded after the run
	(without_bats_fds pp_unload_all </dev/null >/tmp/pp.unload 2>&1) &
	local unloader=$! _
	for _ in $(seq 100); do
		if ! kill -0 "$unloader" 2>/dev/null; then
			wait "$unloader" || { cat /tmp/pp.unload >&3; return 1; }
			return 0
		fi
		sleep 0.2
	done
	echo "# the pata_parport modules were still unloading after 20 s: $(pp_pending_writes)" >&3
}

# run_split CMD...: $status, $out (stdout) and $err (stderr), apart; a
# write rtla leaves blocked in the driver holds none of bats' pipes
run_split() {
	set +e
	(without_bats_fds "$@") >/tmp/pp.out 2>/tmp/pp.err
	status=$?
	set -e
	out=$(cat /tmp/pp.out)
	err=$(cat /tmp/pp.err)
	printf '%s\n--- stderr:\n%s\n--- status %s\n' "$out" "$err" "$status"
}

@test "parport without the modules: says to load parport_pc and pata_parport" {
	run_split "$RTLA" parport
	[ "$status" -eq 0 ]
	[ -z "$out" ]
	[[ $err == *"no parallel port support: /sys/bus/parport is missing; load parport_pc (modprobe parport_pc)"* ]]
	[[ $err == *"pata_parport is not loaded"*"modprobe pata_parport probe=0"* ]]
	run_split "$RTLA" parport -J
	[[ $out == *'"parport": false,'* && $out == *'"pata_parport": false,'* ]]
	run_split "$RTLA" parport add parport0 epat
	[ "$status" -eq 1 ]
	[[ $err == "rtla parport add: pata_parport is not loaded"*"modprobe pata_parport probe=0"* ]]
}

@test "parport with ports only: both ISA ports, and pata_parport named" {
	pp_load_ports
	run_split "$RTLA" parport
	[ "$status" -eq 0 ]
	[[ $err == *"pata_parport is not loaded"* ]]
	[[ $out == *$'\nparport0 0x'[23]'78 '*'PCSPP,TRISTATE'* ]]
	[[ $out == *$'\nparport1 0x'[23]'78 '* ]]
	run_split "$RTLA" parport --ports -J
	[[ $out == *'"base": "0x378"'* && $out == *'"base": "0x278"'* ]]
}

@test "parport lists the protocols with the modules that registered them" {
	pp_load_driver epat rtla_ppfake
	run_split "$RTLA" parport --protocols --raw -n
	[ "$status" -eq 0 ]
	[ "$out" = "epat epat Shuttle\\x20EPAT/EPEZ 0
ppfake rtla_ppfake - 0" ]
	[ -z "$err" ]
}

@test "add auto finds the fake adapter; list shows its ATA port, SCSI host and disk" {
	run_split "$RTLA" parport add auto --timeout 20
	[ "$status" -eq 0 ]
	[[ $err == *"'auto' probes with 2 protocols"* ]]
	[[ $out == *"pata_parport.0 parport0 ppfake "*" ata1 host0 sda "*" 4194304 RTLA FAKE DISK"* ]]
	run_split "$RTLA" parport --devices -o DEVICE,PORT,PROTOCOL,MODE,UNIT,DELAY,DISK,SIZE,MODEL -J
	[[ $out == *'"device": "pata_parport.0"'*'"mode": 1,'*'"unit": 0,'*'"delay": 1,'*'"disk": "sda",'*'"size": 4194304,'*'"model": "RTLA FAKE DISK"'* ]]
	[ "$(cat /proc/sys/dev/parport/parport0/devices/active)" = pata_parport ]
}

@test "features: the parport rows read the real driver's ports, device and protocols" {
	run_split "$RTLA" features -g parport --raw -n -o FEATURE,STATE,EVIDENCE
	[ "$status" -eq 0 ]
	# --raw writes a blank as \x20
	[[ $out == *'parport\x20ports yes /sys/bus/parport/devices:\x20parport0,parport1'* ]]
	[[ $out == *'pata_parport\x20bus yes /sys/bus/pata_parport:\x20devices:\x20pata_parport.0'* ]]
	[[ $out == *'pata_parport\x20protocols yes /sys/bus/pata_parport/drivers:\x20'*epat*ppfake* ]]
}

@test "add on a port a device holds is refused before anything is written" {
	run_split "$RTLA" parport add parport0 epat
	[ "$status" -eq 1 ]
	[ "$err" = "rtla parport add: parport0 is held by pata_parport (pata_parport.0, protocol ppfake): the driver would wait for it to be released, which never happens while that device exists; delete it first" ]
	run_split "$RTLA" parport add parport0 ppfake
	[ "$err" = "rtla parport add: parport0 already has a ppfake device: pata_parport.0" ]
}

@test "delete removes the device, written without a newline; a second delete is explained" {
	run_split "$RTLA" parport delete pata_parport.0 --dry-run
	[ "$out" = "would write 'pata_parport.0' to /sys/bus/pata_parport/delete_device" ]
	[ -e /sys/bus/pata_parport/devices/pata_parport.0 ]
	run_split "$RTLA" parport delete pata_parport.0
	[ "$status" -eq 0 ]
	[ "$out" = "pata_parport.0 deleted (ppfake on parport0, disk sda)" ]
	[ ! -e /sys/bus/pata_parport/devices/pata_parport.0 ]
	[ ! -e /sys/block/sda ]
	run_split "$RTLA" parport delete pata_parport.0
	[ "$status" -eq 1 ]
	[ "$err" = "rtla parport delete: no device pata_parport.0 (devices: none)" ]
}

@test "add PORT PROTOCOL MODE: a named mode, with the kernel's log line" {
	run_split "$RTLA" parport add parport0 ppfake 0 --dry-run
	[ "$out" = "would write 'parport0 ppfake 0' to /sys/bus/pata_parport/new_device" ]
	run_split "$RTLA" parport add parport0 ppfake 0 -o DEVICE,PORT,MODE,MODENAME,DISK --raw -n \
		--json-file /tmp/add.json
	[ "$status" -eq 0 ]
	[ "$out" = "pata_parport.0 parport0 0 4-bit sda" ]
	grep -q '"command": "parport add",' /tmp/add.json
	grep -q '"device": "pata_parport.0",' /tmp/add.json
	pp_delete_all
}

@test "no adapter: the kernel's Adapter not found turned into a sentence" {
	run_split "$RTLA" parport add parport0 epat 0
	[ "$status" -eq 1 ]
	[ "$err" = 'rtla parport add: no epat adapter answered on parport0 (the kernel logged "epat pata_parport.0: Adapter not found"): check that the adapter is powered and cabled, and that epat is its protocol, or try without a MODE' ]
}

@test "a protocol that is not registered, a module name, a known protocol not loaded" {
	run_split "$RTLA" parport add parport0 bogus
	[ "$status" -eq 1 ]
	[ "$err" = "rtla parport add: no protocol bogus is registered (registered: epat, ppfake)" ]
	run_split "$RTLA" parport add parport0 kbic
	[ "$err" = "rtla parport add: kbic is a module, not a protocol: it registers k951 or k971; give one of those (after modprobe of the module)" ]
	run_split "$RTLA" parport add parport0 k951
	[ "$err" = "rtla parport add: protocol k951 is not registered: load its module (modprobe kbic); registered now: epat, ppfake" ]
}

@test "bad port names and numbers are refused before writing" {
	run_split "$RTLA" parport add lpt0 epat
	[ "$status" -eq 1 ]
	[ "$err" = "rtla parport add: not a port name (parportN or auto): lpt0" ]
	run_split "$RTLA" parport add parport7 epat
	[[ $err == "rtla parport add: no port parport7 (ports: parport0, parport1)" ]]
	run_split "$RTLA" parport add parport0 epat 6
	[ "$err" = "rtla parport add: protocol epat has modes 0 to 5 (4-bit to EPP-32), not 6" ]
	run_split "$RTLA" parport add parport0 epat 0 1
	[ "$err" = "rtla parport add: protocol epat has only unit 0, not unit 1" ]
	run_split "$RTLA" parport add parport0 epat x
	[ "$err" = "rtla parport add: MODE must be a number from -1 (auto) to 63: x" ]
}

@test "parport1: the 6.12 driver's parport0-only limit is explained" {
	run_split "$RTLA" parport add parport1 ppfake
	[ "$status" -eq 1 ]
	[[ $err == *"warning: parport1: the pata_parport driver of Linux 6.3 to 6.12 only admits parport0"* ]]
	[[ $err == *"rtla parport add: no device was created on parport1 (No such device, nothing logged): the pata_parport driver of Linux 6.3 to 6.12 only admits parport0"* ]]
	[ ! -e /sys/bus/pata_parport/devices/pata_parport.0 ]
}

@test "a write the driver blocks: add auto stalls after a find, and the tool gives up" {
	pp_insmod kbic		# registered after ppfake: its probes wait for the port
	run_split timeout 20 "$RTLA" parport add auto --timeout 2
	[ "$status" -eq 1 ]
	[[ $err == *"writing 'auto' to /sys/bus/pata_parport/new_device did not return within 2 s"*"this write (pid "*") in parport_claim_or_block"* ]]
	[[ $out == *"pata_parport.0 parport0 ppfake "* ]]
	# the killed write wakes and gives up its probes; the device stays
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		dmesg | grep -q 'k971 pata_parport.1: Adapter not found' && break
		sleep 0.5
	done
	[ -e /sys/bus/pata_parport/devices/pata_parport.0 ]
}

@test "a write the driver blocks: delete while a probe=1 protocol load waits, and the tool gives up" {
	echo 1 >/sys/module/pata_parport/parameters/probe
	run_split "$RTLA" parport --devices
	[[ $err == *"warning: pata_parport probes with every protocol loaded (probe=1): loading a protocol module now blocks the driver"* ]]
	without_bats_fds insmod "$PP_MODDIR/aten.ko" &
	loader=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(cat /proc/$loader/wchan 2>/dev/null)" = parport_claim_or_block ] && break
		sleep 0.3
	done
	run_split timeout 20 "$RTLA" parport delete pata_parport.0 --timeout 2
	kill -9 "$loader"
	# never wait unbounded: an insmod stuck in the driver may not die at once
	for _ in $(seq 50); do
		kill -0 "$loader" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$loader" 2>/dev/null; then
		echo "insmod (pid $loader) did not die within 10 s of SIGKILL: $(cat /proc/$loader/wchan)"
		return 1
	fi
	wait "$loader" || true
	echo 0 >/sys/module/pata_parport/parameters/probe
	[ "$status" -eq 1 ]
	[[ $err == *"writing 'pata_parport.0' to /sys/bus/pata_parport/delete_device did not return within 2 s"*"insmod (pid $loader) in parport_claim_or_block"* ]]
	# The pending delete usually goes through once the loader is gone, but
	# not always: a loader killed inside the driver's probe can leave the
	# port to nobody ("tried to release parport when not owner") and the
	# delete waiting for good. That is the kernel's, and rtla only says the
	# write "may" still take effect, so it is reported, not asserted.
	for _ in $(seq 100); do
		[ -e /sys/bus/pata_parport/devices/pata_parport.0 ] || return 0
		sleep 0.2
	done
	echo "# the pending delete had not gone through 20 s after the loader died: $(pp_pending_writes)" >&3
}
