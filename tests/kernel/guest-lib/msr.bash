# The msr driver and SMIs in the x86 guests (`load /vm/lib/msr`).
#
# The guests boot without the msr driver: each kernel's own msr.ko is in
# /lib/modules/RELEASE with a modules.dep, for `modprobe msr` (or insmod of
# $MSR_KO), so that a test can have /dev/cpu/N/msr or not.  QEMU (TCG) keeps
# MSR_SMI_COUNT (0x34) per CPU: 1 on CPU 0 after the firmware's boot, 0 on
# the others, and one more on CPU 0 for each SMI, which a write to the APM
# control port 0xb2 raises.
# shellcheck shell=bash

# shellcheck disable=SC2034 # for the tests that load this
MSR_KO=/lib/modules/$(uname -r)/kernel/arch/x86/kernel/msr.ko
# shellcheck disable=SC2034
MSR_SMI_COUNT=0x34

msr_load() { modprobe msr; }

# Unload the driver if it is loaded (a test's teardown).
msr_unload() {
	if [ -d /sys/module/msr ]; then rmmod msr; fi
}

# msr_read CPU MSR: the MSR's value in decimal.  The driver reads the MSR
# at the file offset, 8 bytes at a time; busybox od and hexdump read more.
msr_read() {
	local value
	value=$(set -o pipefail
		dd if="/dev/cpu/$1/msr" bs=8 count=1 skip=$(($2)) iflag=skip_bytes status=none |
			od -An -tu8) || return 1
	value=${value//[[:space:]]/}
	[ -n "$value" ] || return 1
	echo "$value"
}

# smi_raise [N]: raise N SMIs (default 1), all taken by CPU 0.  The byte
# written is no ACPI enable or disable command (0xf1, 0xf0), which the
# chipset would take for itself, and no command the firmware's SMI handler
# acts on.
smi_raise() {
	local i
	for ((i = 0; i < ${1:-1}; i++)); do
		printf '\000' | dd of=/dev/port bs=1 seek=$((0xb2)) count=1 conv=notrunc status=none ||
			return 1
	done
}
