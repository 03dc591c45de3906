#!/bin/bash
# Test tier 4: boot real kernels under QEMU (TCG) and run tests inside them
# against a freshly built rtla.
#
#   tests/kernel/vm-tier.sh --rtla PATH [--kernel 6.12|6.1|all] [--only FILE [--filter REGEX]]
#   tests/kernel/vm-tier.sh [--rtla PATH] [--kernel 6.12|6.1|all] --cmd 'COMMAND'
#   tests/kernel/vm-tier.sh --arm64 BUNDLE [--kernel arm64|all] [--only FILE [--filter REGEX]|--cmd 'COMMAND']
#
# Without --cmd: runs the guest tests of each kernel (guest-all/ and
# guest-KERNEL/ beside this script; --only runs one file) and prints their TAP,
# the names prefixed with the kernel, then the line "vm: N passed, N failed".
# Exits 0 only if every test passed and every guest ran to its end.
#
# With --cmd: runs COMMAND with bash in the guest (default kernel 6.12) and
# prints its stdout and stderr as they are; exits with its status.
#
# Options:
#   --rtla PATH     our rtla, installed in the guest as /usr/local/bin/rtla
#   --arm64 DIR     the arm64 bundle (make CROSS_COMPILE=aarch64-linux-gnu- bundle):
#                   adds the arm64 guest (guest-arm64/ tests), a board with
#                   only DIR's files, as /opt/rtla, busybox and bats
#   --kernel K      6.12, 6.1, arm64 or all (default: all; 6.12 with --cmd; with
#                   --only, the kernel of the file's folder)
#   --only FILE     run only this test file (.bats or .sh)
#   --filter REGEX  of a .bats file, only the tests whose names match (bats -f)
#   --cmd COMMAND   run COMMAND in the guest instead of the tests
#   --append ARGS   more kernel arguments for every guest of this run
#                   (e.g. --append 'isolcpus=1 nohz_full=1' with --cmd)
#   --keep          keep the temporary folder (initramfs, serial logs)
#
# A test file with a line "# vm-append: ARGS" among its first 20 runs in a
# guest of its own, booted with ARGS added to the kernel's command line.
#
# Environment: RTLA_VM_CACHE (download cache, default /var/cache/rtla-vm),
# RTLA_VM_TIMEOUT (seconds a guest may run, default 1200),
# RTLA_VM_FILE_TIMEOUT (seconds a test file may run, default 300),
# RTLA_VM_JOBS (guests run at once, default the number of CPUs, at most 4),
# RTLA_VM_SMP (the x86 guests' vCPUs, default 2; bench/scale boots 1 to 64).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"

usage() { sed -n '2,/^[^#]/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

rtla="" arm64="" kernel="" only="" filter="" cmd="" have_cmd=0 keep=0 append=""
while (($#)); do
	case $1 in
	--rtla) rtla=${2:?--rtla needs a path}; shift 2 ;;
	--arm64) arm64=${2:?--arm64 needs the bundle folder}; shift 2 ;;
	--kernel) kernel=${2:?--kernel needs 6.12, 6.1, arm64 or all}; shift 2 ;;
	--only) only=${2:?--only needs a file}; shift 2 ;;
	--filter) filter=${2:?--filter needs a regex of test names}; shift 2 ;;
	--cmd) cmd=${2?--cmd needs a command}; have_cmd=1; shift 2 ;;
	--append) append=${2:?--append needs kernel arguments}; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; vm_die "unknown argument '$1'" ;;
	esac
done

guest_timeout=${RTLA_VM_TIMEOUT:-1200}
file_timeout=${RTLA_VM_FILE_TIMEOUT:-300}
[[ $guest_timeout =~ ^[0-9]+$ && $guest_timeout -ge 30 ]] || vm_die "RTLA_VM_TIMEOUT must be a number of seconds, at least 30"
[[ $file_timeout =~ ^[0-9]+$ && $file_timeout -ge 1 ]] || vm_die "RTLA_VM_FILE_TIMEOUT must be a number of seconds"

if ((have_cmd)) && [[ -z ${cmd//[[:space:]]/} ]]; then
	vm_die "--cmd is empty: give the command to run, e.g. --cmd 'rtla hwnoise -d 3s -q'"
fi
if [[ -n $arm64 ]]; then
	[[ -x $arm64/rtla ]] || vm_die "--arm64 $arm64: no rtla in it (make CROSS_COMPILE=aarch64-linux-gnu- bundle)"
fi
if [[ -n $rtla ]]; then
	[[ -f $rtla && -x $rtla ]] || vm_die "--rtla $rtla: no such executable"
elif ((!have_cmd)) && [[ $kernel != arm64 && ${only:-} != */guest-arm64/* ]]; then
	vm_die "--rtla PATH is needed: the rtla to test"
fi
# The folders of tests a kernel runs: guest-all/ is for the x86 guests.
test_dirs() { if [[ $1 == arm64 ]]; then echo arm64; else echo all "$1"; fi; }

# The test files, by kernel folder name (all, 6.12, 6.1).
declare -A tests
[[ -z $filter || $only == *.bats ]] || vm_die "--filter goes with --only FILE.bats"
if [[ -n $only ]]; then
	[[ -f $only ]] || vm_die "--only $only: no such file"
	[[ $only == *.bats || $only == *.sh ]] || vm_die "--only $only: a test file ends in .bats or .sh"
	folder=$(basename "$(cd "$(dirname "$only")" && pwd)")
	case $folder in
	guest-6.12 | guest-6.1 | guest-arm64) tests[${folder#guest-}]=$only; : "${kernel:=${folder#guest-}}" ;;
	*) tests[all]=$only ;;
	esac
else
	for k in all "${VM_KERNELS[@]}" ${arm64:+arm64}; do
		for f in "$HERE/guest-$k"/*.bats "$HERE/guest-$k"/*.sh; do
			if [[ -f $f ]]; then tests[$k]+="$f"$'\n'; fi
		done
	done
fi
if ((have_cmd)); then
	: "${kernel:=6.12}"
else
	: "${kernel:=all}"
fi
case $kernel in
all) kernels=("${VM_KERNELS[@]}" ${arm64:+arm64}) ;;
6.12 | 6.1) kernels=("$kernel") ;;
arm64) [[ -n $arm64 ]] || vm_die "--kernel arm64 needs --arm64 BUNDLE"; kernels=(arm64) ;;
*) vm_die "--kernel $kernel: use 6.12, 6.1, arm64 or all" ;;
esac
x86=0
for k in "${kernels[@]}"; do [[ $k == arm64 ]] || x86=1; done
if [[ -n $only && $kernel != all && -z ${tests[all]:-} && -z ${tests[$kernel]:-} ]]; then
	vm_die "--only $only is a test of another kernel than $kernel"
fi

# --- the plan: which guests run which test files ---------------------------

# Guests run side by side, each TCG guest keeping one host core busy.  A
# kernel's files are split among several guests ("shards") in proportion to
# its share of the tests, so that the longest guest is as short as may be.
jobs=${RTLA_VM_JOBS:-$(nproc)}
[[ $jobs =~ ^[0-9]+$ ]] || vm_die "RTLA_VM_JOBS must be a number"
((jobs >= 1)) || jobs=1
((jobs <= 4)) || jobs=4

# How long each file ran last time, from $VM_CACHE/times ("KERNEL FILE
# SECONDS" lines, FILE as all/F or KERNEL/F), kept up to date by each run;
# on a cold cache, from times.seed beside this script (a run on a 2-core
# machine), so that the first run's shards are balanced too.
declare -A file_time=() new_time=()
for times in "$HERE/times.seed" "$VM_CACHE/times"; do
	[[ -f $times ]] || continue
	while read -r k f t; do
		if [[ ${t:-} =~ ^[0-9]+\.[0-9]$ ]]; then file_time["$k $f"]=$t; fi
	done <"$times"
done

# The weight of test file $3 (a path) of kernel $1, from folder $2, in tenths
# of a second: its last run time, or else 5 s for each of its tests.
weight() {
	local c t=${file_time["$1 $2/${3##*/}"]:-}
	if [[ -n $t ]]; then
		t=$((10#${t/./}))
		echo $((t > 0 ? t : 1))
		return
	fi
	c=$(grep -c '^@test' "$3" || true)
	echo $((c > 0 ? c * 50 : 50))
}

save_times() {
	local key
	for key in "${!new_time[@]}"; do
		file_time[$key]=${new_time[$key]}
	done
	((${#new_time[@]})) || return 0
	for key in "${!file_time[@]}"; do
		echo "$key ${file_time[$key]}"
	done | sort >"$VM_CACHE/times.$$"
	mv "$VM_CACHE/times.$$" "$VM_CACHE/times"
}

# The kernel arguments test file $1 asks for ("# vm-append: ARGS"), or nothing.
file_append() { sed -n '1,20s/^# vm-append: *//p' "$1" | head -n 1; }

guests=()               # guest ids
declare -A gw=()        # a guest's expected run time, in tenths of a second
declare -A after=()     # the guest a guest waits for (schedule_guests)
declare -a start_order=() read_order=()
boot_weight=80          # about 8 s of boot and power-off
declare -A shard_files  # "KERNEL.SHARD" -> the shard's files, as all/F or KERNEL/F
declare -A gappend=()   # a guest's extra kernel arguments
plan_guests() {
	local k f d total=0 i s best shards args n
	local -A kw=() kn=() ka=() awork=() afiles=()
	local -a files load
	for k in "${kernels[@]}"; do
		kw[$k]=0 kn[$k]=0 ka[$k]=""
		for d in $(test_dirs "$k"); do
			while read -r f; do
				[[ -n $f ]] || continue
				# a file with kernel arguments of its own: a guest of its own
				args=$(file_append "$f")
				if [[ -n $args ]]; then
					[[ $'\n'${ka[$k]} == *$'\n'"$args"$'\n'* ]] || ka[$k]+="$args"$'\n'
					afiles["$k $args"]+="$d/${f##*/}"$'\n'
					awork["$k $args"]=$((${awork["$k $args"]:-0} + $(weight "$k" "$d" "$f")))
					continue
				fi
				kw[$k]=$((kw[$k] + $(weight "$k" "$d" "$f"))) kn[$k]=$((kn[$k] + 1))
			done <<<"${tests[$d]:-}"
		done
		total=$((total + kw[$k]))
	done
	for k in "${kernels[@]}"; do
		n=0
		while read -r args; do
			[[ -n $args ]] || continue
			s="$k+$n"
			guests+=("$s")
			gk[$s]=$k glabel[$s]="$k +$args" gshard[$s]=a$n gappend[$s]=$args
			gw[$s]=$((${awork["$k $args"]} + boot_weight))
			shard_files[$k.a$n]=${afiles["$k $args"]}
			n=$((n + 1))
		done <<<"${ka[$k]}"
		if ((kn[$k] == 0)); then
			((n)) || echo "# [$k] no test files for this kernel"
			continue
		fi
		shards=1
		if ((jobs > 1 && total > 0)); then
			shards=$(((2 * jobs * kw[$k] + total) / (2 * total)))
			((shards <= kn[$k])) || shards=${kn[$k]}
			((shards >= 1)) || shards=1
		fi
		if ((shards == 1 && n == 0)); then
			guests+=("$k")
			gk[$k]=$k glabel[$k]=$k gshard[$k]="" gw[$k]=$((kw[$k] + boot_weight))
			continue
		fi
		# Heaviest file first onto the lightest shard.
		mapfile -t files < <(for d in $(test_dirs "$k"); do
			while read -r f; do
				# the files with kernel arguments of their own run in their guest only
				[[ -n $f && -z $(file_append "$f") ]] || continue
				echo "$(weight "$k" "$d" "$f") $d/${f##*/}"
			done <<<"${tests[$d]:-}"
		done | sort -k1,1nr -k2)
		load=()
		for ((i = 0; i < shards; i++)); do
			load[i]=0
			shard_files[$k.$i]=""
		done
		for f in "${files[@]}"; do
			best=0
			for ((i = 1; i < shards; i++)); do
				((load[i] < load[best])) && best=$i
			done
			load[best]=$((load[best] + ${f%% *}))
			shard_files[$k.$best]+="${f#* }"$'\n'
		done
		for ((i = 0; i < shards; i++)); do
			s="$k-$((i + 1))"
			guests+=("$s")
			gk[$s]=$k glabel[$s]="$k $((i + 1))/$shards" gshard[$s]=$i gw[$s]=$((load[i] + boot_weight))
			((shards > 1)) || glabel[$s]=$k
		done
	done
}

# When to start and read each guest.  Guests start longest first, each in the
# slot (of $jobs) that frees first; their TAP is read in the order they are
# expected to end, and a guest starts once the one before it in its slot has
# been read.  Sets start_order, read_order and after (the guest before, by slot).
schedule_guests() {
	local g s best
	local -a end=() last=()
	local -A ends=()
	mapfile -t start_order < <(for g in "${guests[@]}"; do echo "${gw[$g]} $g"; done |
		sort -k1,1nr | cut -d' ' -f2)
	for ((s = 0; s < jobs; s++)); do
		end[s]=0 last[s]=""
	done
	for g in "${start_order[@]}"; do
		best=0
		for ((s = 1; s < jobs; s++)); do
			if ((end[s] < end[best])); then best=$s; fi
		done
		after[$g]=${last[best]}
		end[best]=$((end[best] + gw[$g]))
		ends[$g]=${end[best]}
		last[best]=$g
	done
	mapfile -t read_order < <(for g in "${start_order[@]}"; do echo "${ends[$g]} $g"; done |
		sort -s -k1,1n | cut -d' ' -f2)
}

# The tier cannot run: one failed test that says why, then the summary.
tier_fail() {
	vm_log "error: $*"
	if ((!have_cmd)); then
		echo "not ok 1 the VM tier runs: $*"
		echo "1..1"
		echo "vm: 0 passed, 1 failed"
	fi
	exit 1
}

if ((x86)); then
	command -v qemu-system-x86_64 >/dev/null ||
		tier_fail "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
fi
if [[ -n $arm64 ]]; then
	command -v qemu-system-aarch64 >/dev/null ||
		tier_fail "qemu-system-aarch64 is not installed (apt-get install qemu-system-arm)"
fi
for tool in timeout tail ldd find date awk; do
	command -v "$tool" >/dev/null || tier_fail "vm-tier.sh needs '$tool', which is not installed"
done
"$HERE/fetch.sh" || tier_fail "could not fill the download cache $VM_CACHE (tests/kernel/fetch.sh)"
if [[ " ${kernels[*]} " == *" arm64 "* ]]; then
	"$HERE/fetch-arm64.sh" || tier_fail "could not fill the arm64 download cache $VM_CACHE/arm64 (tests/kernel/fetch-arm64.sh)"
fi
# The out-of-tree modules of the 6.12 guest (modules-build.sh: pata_parport,
# preemptirq_delay_test; built once per kernel release), for the test files
# that load them (their names say parport or irqoff) and for --cmd.  Without
# them only those tests fail, and say why.
guest_modules="" need_modules=$have_cmd
while read -r f; do
	# the file's name, not its folders': a checkout may be called so
	if [[ ${f##*/} =~ parport|irqoff ]]; then need_modules=1; fi
done <<<"${tests[6.12]:-}"
if [[ " ${kernels[*]} " == *" 6.12 "* ]] && ((need_modules)); then
	if "$HERE/modules-build.sh"; then
		guest_modules=$VM_CACHE/modules-$(cat "$VM_CACHE/kernel-6.12/release")/modules
	else
		vm_log "warning: could not build the 6.12 guest's modules (tests/kernel/modules-build.sh): the parport and irqoff tests will fail"
	fi
fi

# --- cleaning up -----------------------------------------------------------

TMP=$(mktemp -d "${TMPDIR:-/tmp}/rtla-vm.XXXXXX")
declare -A qpid=() started=() gk=() glabel=() gshard=()
cleanup() {
	local pidfile pid
	# A second signal (^C twice, timeout(1) signalling the group and the
	# command) must not cut the cleaning short.
	trap '' INT TERM HUP
	for pid in "${qpid[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	# qemu itself, should timeout(1) have gone already
	for pidfile in "$TMP"/*.pid; do
		if pid=$(cat "$pidfile" 2>/dev/null) && [[ -n $pid ]]; then
			kill -9 "$pid" 2>/dev/null || true
		fi
	done
	for pid in "${qpid[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	if ((keep)); then
		vm_log "kept $TMP"
	else
		rm -rf "$TMP"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# --- the initramfs ---------------------------------------------------------

ROOT=$TMP/root
BUSYBOX=$VM_CACHE/busybox/busybox

# Copy a host ELF program and the libraries ldd finds for it, at their paths.
copy_program() {
	local src=$1 dst=$2 lib
	mkdir -p "$ROOT/$(dirname "$dst")"
	cp -L "$src" "$ROOT/$dst"
	while read -r lib; do
		[[ -e $ROOT/$lib ]] && continue
		mkdir -p "$ROOT/$(dirname "$lib")"
		cp -L "$lib" "$ROOT/$lib"
	done < <(ldd "$src" 2>/dev/null | grep -oE '(^|[[:space:]])/[^[:space:]]+' | tr -d '[:blank:]')
}

build_initramfs() {
	local applet k f prog
	mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,etc,proc,sys,dev,tmp,run,root,opt}
	mkdir -p "$ROOT"/vm/tests/{all,6.12,6.1} "$ROOT/vm/lib"
	cp "$BUSYBOX" "$ROOT/bin/busybox"
	for applet in $("$BUSYBOX" --list-full); do
		[[ $applet == linuxrc || -e $ROOT/$applet ]] && continue
		mkdir -p "$ROOT/$(dirname "$applet")"
		ln -s /bin/busybox "$ROOT/$applet"
	done
	cp "$VM_CACHE/bash/bash" "$ROOT/bin/bash"
	ln -s /bin/bash "$ROOT/usr/bin/bash"
	# Programs from the host (bookworm, like our rtla's libraries).
	for prog in chrt nice stdbuf script setpriv; do
		f=$(command -v "$prog" || true)
		if [[ -n $f ]]; then
			rm -f "$ROOT/usr/bin/$prog"
			copy_program "$f" "/usr/bin/$prog"
		fi
	done
	# xterm's terminfo entry, for the live view under script(1)
	if [[ -f /lib/terminfo/x/xterm ]]; then
		mkdir -p "$ROOT/lib/terminfo/x"
		cp /lib/terminfo/x/xterm "$ROOT/lib/terminfo/x/"
	fi
	if [[ -n $rtla ]]; then
		copy_program "$rtla" /usr/local/bin/rtla
	fi
	cp -a "$VM_CACHE/peer" "$ROOT/opt/peer"
	if [[ -n $guest_modules ]]; then
		mkdir -p "$ROOT/vm/modules/6.12"
		cp "$guest_modules"/*.ko "$ROOT/vm/modules/6.12/"
	fi
	ln -s /opt/peer/bin/rtla "$ROOT/usr/bin/rtla-peer"
	# rt-tests: hwlatdetect with its python3, cyclictest, oslat, and rdmsr
	# (their loader and libc are the peer's)
	cp -a "$VM_CACHE/rt-tests" "$ROOT/opt/rt-tests"
	for prog in hwlatdetect rdmsr; do
		ln -s "/opt/rt-tests/sbin/$prog" "$ROOT/usr/sbin/$prog"
	done
	for prog in python3 cyclictest oslat; do
		ln -s "/opt/rt-tests/bin/$prog" "$ROOT/usr/bin/$prog"
	done
	# Each kernel's msr.ko where modprobe finds it; nothing loads it
	# but the tests that want /dev/cpu/N/msr.
	for k in "${VM_KERNELS[@]}"; do
		f=$ROOT/lib/modules/$(cat "$VM_CACHE/kernel-$k/release")
		mkdir -p "$f/kernel/arch/x86/kernel"
		cp "$VM_CACHE/kernel-$k/msr.ko" "$f/kernel/arch/x86/kernel/"
		cp "$VM_CACHE/kernel-$k/modules.builtin" "$f/"
		echo 'kernel/arch/x86/kernel/msr.ko:' >"$f/modules.dep"
	done
	cp -a "$VM_CACHE/bats/usr/." "$ROOT/usr/"
	echo 'root:x:0:0:root:/root:/bin/bash' >"$ROOT/etc/passwd"
	echo 'root:x:0:' >"$ROOT/etc/group"
	install -m 755 "$HERE/guest-init.sh" "$ROOT/init"
	# Helpers the tests load (load /vm/lib/NAME).
	for f in "$HERE"/guest-lib/* "$HERE/../lib/untraced.bash"; do
		if [[ -f $f ]]; then cp "$f" "$ROOT/vm/lib/"; fi
	done
	# the shell gate of rtla-hwnoise(1), which a guest test runs as the page has it
	"$HERE/../fixtures/gates/man-example.sh" shell >"$ROOT/vm/lib/gate.sh"
	for k in "${!tests[@]}"; do
		[[ $k != arm64 ]] || continue    # the arm64 guest has an initramfs of its own
		while read -r f; do
			if [[ -n $f ]]; then cp "$f" "$ROOT/vm/tests/$k/"; fi
		done <<<"${tests[$k]}"
	done
	if ((have_cmd)); then
		printf '%s\n' "$cmd" >"$ROOT/vm/cmd"
	fi
	if [[ -n $filter ]]; then
		printf '%s\n' "$filter" >"$ROOT/vm/filter"
	fi
	mkdir -p "$ROOT/vm/shards"
	for f in "${!shard_files[@]}"; do
		printf '%s' "${shard_files[$f]}" >"$ROOT/vm/shards/$f"
	done
	# Uncompressed: under TCG the kernel would take seconds to inflate it.
	(cd "$ROOT" && find . | "$BUSYBOX" cpio -o -H newc) >"$TMP/initrd.cpio" 2>"$TMP/cpio.log" || {
		cat "$TMP/cpio.log" >&2
		tier_fail "could not build the initramfs"
	}
}

# The arm64 guest is a board: busybox, the bundle in /opt/rtla, and for the
# tests bash and bats; no /etc/passwd, no /run (guest-init.sh, rtla_vm_board).
build_initramfs_arm64() {
	local r=$TMP/root-arm64 a=$VM_CACHE/arm64 applet f
	mkdir -p "$r"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,etc,proc,sys,dev,tmp,root,opt} "$r/vm/tests/arm64" "$r/vm/lib"
	cp "$a/busybox/busybox" "$r/bin/busybox"
	# the list of applets from the x86 busybox of the same Debian version
	for applet in $("$BUSYBOX" --list-full); do
		[[ $applet == linuxrc || -e $r/$applet ]] && continue
		mkdir -p "$r/$(dirname "$applet")"
		ln -s /bin/busybox "$r/$applet"
	done
	cp "$a/bash/bash" "$r/bin/bash"
	ln -s /bin/bash "$r/usr/bin/bash"
	cp -a "$arm64/." "$r/opt/rtla/"
	ln -s /opt/rtla/rtla "$r/usr/local/bin/rtla"
	cp -a "$a/peer" "$r/opt/peer"
	ln -s /opt/peer/bin/rtla "$r/usr/bin/rtla-peer"
	cp -a "$VM_CACHE/bats/usr/." "$r/usr/"
	install -m 755 "$HERE/guest-init.sh" "$r/init"
	for f in "$HERE"/guest-lib/* "$HERE/../lib/untraced.bash"; do
		if [[ -f $f ]]; then cp "$f" "$r/vm/lib/"; fi
	done
	while read -r f; do
		if [[ -n $f ]]; then cp "$f" "$r/vm/tests/arm64/"; fi
	done <<<"${tests[arm64]:-}"
	if ((have_cmd)); then printf '%s\n' "$cmd" >"$r/vm/cmd"; fi
	if [[ -n $filter ]]; then printf '%s\n' "$filter" >"$r/vm/filter"; fi
	mkdir -p "$r/vm/shards"
	for f in "${!shard_files[@]}"; do
		printf '%s' "${shard_files[$f]}" >"$r/vm/shards/$f"
	done
	(cd "$r" && find . | "$BUSYBOX" cpio -o -H newc) >"$TMP/initrd-arm64.cpio" 2>"$TMP/cpio.log" || {
		cat "$TMP/cpio.log" >&2
		tier_fail "could not build the arm64 initramfs"
	}
}

# --- booting ---------------------------------------------------------------

# Boot guest $1: kernel ${gk[$1]}, running shard ${gshard[$1]} of its tests
# (all of them when that is empty).
start_guest() {
	local g=$1 k=${gk[$1]} kdir image shard="" extra=""
	local -a devices=()
	kdir=$VM_CACHE/kernel-$k
	[[ $k == arm64 ]] || image=$kdir/$(cat "$kdir/boot")
	[[ -n ${gshard[$g]} ]] && shard=" rtla_vm_shard=${gshard[$g]}"
	# the run's --append, then the file's own "# vm-append:" arguments
	extra="${append:+ $append}${gappend[$g]:+ ${gappend[$g]}}"
	# Two ISA parallel ports for the pata_parport tests; unseen until a
	# test loads parport_pc.
	if [[ $k == 6.12 ]]; then
		# shellcheck disable=SC2054 # qemu's own comma-separated properties
		devices=(-chardev null,id=pp0 -device isa-parallel,chardev=pp0,iobase=0x378,irq=7
			-chardev null,id=pp1 -device isa-parallel,chardev=pp1,iobase=0x278,irq=5)
	fi
	: >"$TMP/$g.console"
	: >"$TMP/$g.out"
	: >"$TMP/$g.err"
	started[$g]=$EPOCHREALTIME
	if [[ $k == arm64 ]]; then
		# One UART on -M virt: the results and stderr go to two virtio
		# consoles (hvc0, hvc1). Pointer authentication emulated the
		# cheap way (pauth-impdef) boots in a third of the time.
		# shellcheck disable=SC2054 # qemu's own comma-separated properties
		timeout -k 5 "$guest_timeout" qemu-system-aarch64 \
			-M virt -cpu max,pauth-impdef=on -accel tcg,thread=single -smp 2 -m 1G \
			-nodefaults -no-user-config -display none -no-reboot \
			-kernel "$VM_CACHE/arm64/kernel/Image" -initrd "$TMP/initrd-arm64.cpio" \
			-append "console=ttyAMA0 quiet panic=-1 rtla_vm=arm64 rtla_vm_ports=hvc rtla_vm_board=1 rtla_vm_timeout=$((guest_timeout - 15)) rtla_vm_file_timeout=$file_timeout$shard$extra" \
			-serial "file:$TMP/$g.console" \
			-device virtio-serial-pci \
			-chardev "file,id=out,path=$TMP/$g.out" -device virtconsole,chardev=out \
			-chardev "file,id=err,path=$TMP/$g.err" -device virtconsole,chardev=err \
			-pidfile "$TMP/$g.pid" </dev/null >"$TMP/$g.qemu.log" 2>&1 &
		qpid[$g]=$!
		return
	fi
	timeout -k 5 "$guest_timeout" qemu-system-x86_64 \
		-accel tcg,thread=single -smp "${RTLA_VM_SMP:-2}" -m 1G \
		-nodefaults -no-user-config -display none -no-reboot \
		-kernel "$image" -initrd "$TMP/initrd.cpio" "${devices[@]}" \
		-append "console=ttyS0 quiet panic=-1 mitigations=off rtla_vm=$k rtla_vm_timeout=$((guest_timeout - 15)) rtla_vm_file_timeout=$file_timeout$shard$extra" \
		-serial "file:$TMP/$g.console" -serial "file:$TMP/$g.out" -serial "file:$TMP/$g.err" \
		-pidfile "$TMP/$g.pid" </dev/null >"$TMP/$g.qemu.log" 2>&1 &
	qpid[$g]=$!
}

# Seconds from the start of guest $1 to its last word on the serial port $2.
run_time() {
	awk -v a="${started[$1]}" -v b="$(date -r "$TMP/$1.$2" +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}

# Wait for the guest; print why it failed, if it did.  Returns qemu's status.
stop_guest() {
	local g=$1 rc=0
	wait "${qpid[$g]}" || rc=$?
	unset "qpid[$g]"
	if ((rc == 124 || rc == 137)); then
		echo "# [${glabel[$g]}] the guest ran past ${guest_timeout} s (RTLA_VM_TIMEOUT) and was killed"
	elif ((rc != 0)); then
		echo "# [${glabel[$g]}] qemu exited with status $rc:"
		sed 's/^/#   /' "$TMP/$g.qemu.log"
	fi
	return "$rc"
}

console_tail() {
	local -a oops
	mapfile -t oops < <(tr -d '\r' <"$TMP/$1.console" |
		grep -m 3 -E 'Kernel panic|Oops|BUG:|general protection fault|rtla-vm: watchdog')
	if ((${#oops[@]})); then
		echo "# [${glabel[$1]}] the guest console says:"
		printf '#   %s\n' "${oops[@]}"
	fi
	echo "# [${glabel[$1]}] last lines of the guest console:"
	tr -d '\r' <"$TMP/$1.console" | tail -n 40 | sed 's/^/#   /'
}

# --- running the tests -----------------------------------------------------

n=0 passed=0 failed=0 skipped=0

# Read the guest's TAP stream; print it renumbered, names prefixed with the
# kernel.  Sets ended=1 when the guest reached its end marker.
read_tap() {
	local k=${gk[$1]} label=${glabel[$1]} line desc file="" plan=-1 got=0 file_failed=0 rc
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"RTLA-VM-BEGIN "*)
			line=${line#RTLA-VM-BEGIN }
			echo "# [$label] booted ${line% uptime=*}; first guest command at ${line##*uptime=} s of uptime"
			;;
		"RTLA-VM-FILE "*)
			file=${line#RTLA-VM-FILE } plan=-1 got=0 file_failed=0
			;;
		"RTLA-VM-FILE-END "*)
			rc=${line##*rc=}
			if [[ $line =~ \ secs=([0-9]+\.[0-9]) ]]; then
				echo "# [$label] $file: ${BASH_REMATCH[1]} s"
				# a filtered run's time is not the file's: the shards go by it
				if [[ -z $filter ]]; then new_time["$k $file"]=${BASH_REMATCH[1]}; fi
			fi
			if ((plan < 0 && got == 0)); then
				n=$((n + 1)) failed=$((failed + 1))
				echo "not ok $n [$k] $file: no test ran (status $rc)"
			elif ((plan == 0)) && [[ -n $filter ]]; then
				n=$((n + 1)) failed=$((failed + 1))
				echo "not ok $n [$k] $file: --filter '$filter' matches no test"
			elif ((got < plan)); then
				n=$((n + 1)) failed=$((failed + 1))
				echo "not ok $n [$k] $file: $((plan - got)) of $plan tests did not report (status $rc)"
			elif ((rc != 0 && file_failed == 0)); then
				n=$((n + 1)) failed=$((failed + 1))
				echo "not ok $n [$k] $file: exited with status $rc"
			fi
			file=""
			;;
		"RTLA-VM-KMSG "*)
			echo "# [$label] kernel: ${line#RTLA-VM-KMSG }"
			;;
		"RTLA-VM-END" | "RTLA-VM-WATCHDOG "*)
			if [[ $line == RTLA-VM-END ]]; then
				ended=1
			else
				echo "# [$label] the guest's watchdog fired after ${line#RTLA-VM-WATCHDOG } s"
			fi
			if [[ -n $file ]]; then
				n=$((n + 1)) failed=$((failed + 1))
				echo "not ok $n [$k] $file: did not finish"
				file=""
			fi
			;;
		[0-9]*..[0-9]*)
			if [[ $line =~ ^1\.\.([0-9]+)$ ]]; then plan=${BASH_REMATCH[1]}; fi
			;;
		"ok "* | "not ok "*)
			[[ $line =~ ^(ok|not\ ok)\ [0-9]+\ ?(.*)$ ]] || { echo "# $line"; continue; }
			desc=${BASH_REMATCH[2]#- }
			n=$((n + 1)) got=$((got + 1))
			echo "${BASH_REMATCH[1]} $n [$k] $desc"
			if [[ ${BASH_REMATCH[1]} == "not ok" ]]; then
				failed=$((failed + 1)) file_failed=1
			elif [[ $desc =~ \#\ *[Ss][Kk][Ii][Pp] ]]; then
				skipped=$((skipped + 1))
			else
				passed=$((passed + 1))
			fi
			;;
		"#"*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done
	# The guest stopped short.
	stopped_in=$file
}

run_tests() {
	local g=$1 k=${gk[$1]} ended=0 rc=0 stopped_in="" before=$n guest=guest
	[[ -n ${gshard[$g]} ]] && guest="guest ${glabel[$g]#* }"
	read_tap "$g" < <(tail -n +1 -s 0.2 -f --pid="${qpid[$g]}" "$TMP/$g.out")
	stop_guest "$g" || rc=$?
	if ((!ended)); then
		n=$((n + 1)) failed=$((failed + 1))
		echo "not ok $n [$k] the $guest ran its tests to the end${stopped_in:+ (it stopped in $stopped_in)}"
		console_tail "$g"
	elif ((n == before)); then
		n=$((n + 1)) failed=$((failed + 1))
		echo "not ok $n [$k] the $guest ran tests (it reported none)"
	else
		echo "# [${glabel[$g]}] guest done $(run_time "$g" out) s after qemu started"
	fi
}

run_cmd() {
	local k=$1 rc=0 status tailpid
	gk[$k]=$k glabel[$k]=$k gshard[$k]=""
	start_guest "$k"
	tail -c +1 -s 0.2 -f --pid="${qpid[$k]}" "$TMP/$k.err" >&2 &
	tailpid=$!
	tail -c +1 -s 0.2 -f --pid="${qpid[$k]}" "$TMP/$k.out"
	wait "$tailpid" || true
	stop_guest "$k" >&2 || rc=$?
	status=$(tr -d '\r' <"$TMP/$k.console" | sed -n 's/^RTLA-VM-END status=//p' | tail -n 1)
	if [[ -z $status ]]; then
		console_tail "$k" >&2
		vm_log "[$k] the command did not finish"
		cmd_status=125
	else
		vm_log "[$k] exit status $status ($(tr -d '\r' <"$TMP/$k.console" | sed -n 's/^RTLA-VM-BEGIN //p'), finished $(run_time "$k" console) s after qemu started)"
		((status != 0)) && cmd_status=$status
	fi
	return 0
}

((have_cmd)) || plan_guests
((x86)) && build_initramfs
[[ " ${kernels[*]} " == *" arm64 "* ]] && build_initramfs_arm64

if ((have_cmd)); then
	cmd_status=0
	for k in "${kernels[@]}"; do
		run_cmd "$k"
	done
	exit "$cmd_status"
fi

# Up to $jobs guests run at once; while one is read, the others run.
schedule_guests
declare -A was_read=()
for g in "${read_order[@]}"; do
	for h in "${start_order[@]}"; do
		if [[ -z ${started[$h]:-} ]] && [[ -z ${after[$h]} || -n ${was_read[${after[$h]}]:-} ]]; then
			start_guest "$h"
		fi
	done
	run_tests "$g"
	was_read[$g]=1
done
save_times || vm_log "could not save the test times in $VM_CACHE/times"
echo "1..$n"
summary="vm: $passed passed, $failed failed"
((skipped)) && summary+=", $skipped skipped"
echo "$summary"
((failed == 0 && n > 0))
