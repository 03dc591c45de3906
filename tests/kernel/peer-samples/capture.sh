#!/bin/bash
# Capture the peer's (upstream rtla 6.12, trixie's package) output in the VM
# guests, byte for byte, into this folder: KERNEL/NAME.stdout, NAME.stderr and
# KERNEL/index.txt ("NAME<TAB>exit status<TAB>command").  Run by hand:
#
#   tests/kernel/peer-samples/capture.sh
#
# The measured numbers differ from run to run; the text around them does not.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# name and command, per kernel
samples_612=(
	"help|rtla --help"
	"osnoise-help|rtla osnoise --help"
	"osnoise-top-help|rtla osnoise top --help"
	"osnoise-hist-help|rtla osnoise hist --help"
	"hwnoise-help|rtla hwnoise --help"
	"timerlat-help|rtla timerlat --help"
	"timerlat-top-help|rtla timerlat top --help"
	"timerlat-hist-help|rtla timerlat hist --help"
	"hwnoise-c0-d3s-q|rtla hwnoise -c 0 -d 3s -q"
	"osnoise-top-c0-d3s-q|rtla osnoise top -c 0 -d 3s -q"
	"osnoise-top-c0-d3s|rtla osnoise top -c 0 -d 3s"
)
samples_61=(
	"hwnoise-c0-d3s-q|rtla hwnoise -c 0 -d 3s -q"
	"osnoise-top-c0-d3s-q|rtla osnoise top -c 0 -d 3s -q"
)

# A guest script that runs each sample with the peer (as /opt/peer/bin/rtla,
# so that its argv[0] and comm are "rtla"), then writes a tar of the
# results, base64-encoded, as its only output.
guest_script() {
	local entry name command
	echo 'set -u; mkdir -p /tmp/s; cd /tmp/s'
	for entry; do
		name=${entry%%|*} command=${entry#*|}
		printf '%s >%q 2>%q; echo "%s\t$?\t%s" >>index.txt\n' \
			"/opt/peer/bin/rtla ${command#rtla }" "$name.stdout" "$name.stderr" "$name" "$command"
	done
	echo 'tar -cf - . | base64'
}

capture() {
	local kernel=$1
	shift
	local out=$HERE/$kernel
	rm -rf "$out"
	mkdir -p "$out"
	"$HERE/../vm-tier.sh" --kernel "$kernel" --cmd "$(guest_script "$@")" |
		base64 -d | tar -x -C "$out" --no-same-owner
	echo "captured $(wc -l <"$out/index.txt") samples into $out" >&2
}

capture 6.12 "${samples_612[@]}"
capture 6.1 "${samples_61[@]}"
