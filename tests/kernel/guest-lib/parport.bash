# shellcheck shell=bash
# Loading and unloading the pata_parport test modules in the 6.12 guest.
# tests/kernel/modules-build.sh builds them; vm-tier.sh puts them in
# /vm/modules/6.12 (the kernel's own, uncompressed, and the driver's).
# Protocols are loaded with pata_parport probe=0: with probe=1 a protocol
# loaded while a device holds the port waits for it forever.

PP_MODDIR=/vm/modules/${VM_KERNEL:-6.12}
PP_ALL="rtla_ppfake aten epat kbic pata_parport parport_pc parport sd_mod libata scsi_mod scsi_common"

pp_have_modules() { [ -f "$PP_MODDIR/pata_parport.ko" ] && [ -f "$PP_MODDIR/rtla_ppfake.ko" ]; }
pp_loaded() { grep -q "^$1 " /proc/modules; }

# pp_insmod MODULE [PARAM=VALUE...]: load it unless it is loaded
pp_insmod() {
	local m=$1
	shift
	pp_loaded "$m" || insmod "$PP_MODDIR/$m.ko" "$@"
}

# The ports: parport_pc and what pata_parport's disks need.
pp_load_ports() {
	local m
	for m in scsi_common scsi_mod libata sd_mod parport parport_pc; do
		pp_insmod "$m" || return 1
	done
}

# The driver (probe=0) and the protocols named.
pp_load_driver() {
	local m
	pp_load_ports && pp_insmod pata_parport probe=0 || return 1
	for m; do
		pp_insmod "$m" || return 1
	done
}

pp_delete_all() {
	local d
	for d in /sys/bus/pata_parport/devices/*; do
		if [ -e "$d" ]; then printf '%s' "${d##*/}" >/sys/bus/pata_parport/delete_device; fi
	done
	return 0
}

# Back to a guest without them (the other test files of this boot expect that).
pp_unload_all() {
	local m
	if [ -d /sys/bus/pata_parport ]; then pp_delete_all 2>/dev/null; fi
	for m in $PP_ALL; do
		if pp_loaded "$m"; then rmmod "$m" || return 1; fi
	done
	return 0
}

# What is still waiting in the kernel (for a note when the driver stays
# blocked): each process in state D, its pid, name and wait channel.
pp_pending_writes() {
	local d state comm
	for d in /proc/[0-9]*; do
		state=$(awk '/^State:/ { print $2 }' "$d/status" 2>/dev/null) || continue
		[ "$state" = D ] || continue
		comm=$(cat "$d/comm" 2>/dev/null)
		printf '%s (pid %s) in %s; ' "$comm" "${d#/proc/}" "$(cat "$d/wchan" 2>/dev/null)"
	done
	dmesg | grep -c 'release parport when not owner' | sed 's/$/ release-when-not-owner lines/'
}

# without_bats_fds CMD...: in a subshell (it closes the shell's own), run
# CMD with none of the descriptors bats holds open past stdin, stdout and
# stderr; a program is exec'd, so $! names it. Bats waits for its pipes to
# close, and a write the driver never returns would keep them open: the file
# would end only at the tier's timeout.
without_bats_fds() {
	local fd
	for fd in /proc/$BASHPID/fd/*; do
		fd=${fd##*/}
		if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi
	done
	if declare -F "$1" >/dev/null; then "$@"; else exec "$@"; fi
}
