# Shared by fetch.sh and vm-tier.sh; sourced, not run.
# shellcheck shell=bash

VM_CACHE=${RTLA_VM_CACHE:-/var/cache/rtla-vm}
# Bump when the cache layout changes: fetch.sh then rebuilds it.
VM_CACHE_FORMAT=2
# The kernels of the tier, by short name.  Each has a folder of guest tests
# (guest-NAME/) and an unpacked kernel in the cache (kernel-NAME/).
# shellcheck disable=SC2034 # used by the scripts that source this
VM_KERNELS=(6.12 6.1)

vm_log() { printf 'vm: %s\n' "$*" >&2; }
vm_die() { printf 'vm: error: %s\n' "$*" >&2; exit 2; }

vm_cache_ready() {
	[[ -f $VM_CACHE/ready ]] &&
		[[ $(sed -n 's/^format=//p' "$VM_CACHE/ready") == "$VM_CACHE_FORMAT" ]]
}
