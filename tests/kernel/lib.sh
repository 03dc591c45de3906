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

# What the cache holds beyond its format's layout, added since.  A cache
# whose ready file does not list all of it is filled again (downloading only
# the packages it lacks), while older checkouts, which check only the format,
# go on using the same cache as it is.
VM_CACHE_EXTRAS="msr.ko rt-tests rdmsr"

vm_cache_ready() {
	[[ -f $VM_CACHE/ready ]] &&
		[[ $(sed -n 's/^format=//p' "$VM_CACHE/ready") == "$VM_CACHE_FORMAT" ]] &&
		[[ $(sed -n 's/^extras=//p' "$VM_CACHE/ready") == "$VM_CACHE_EXTRAS" ]]
}
