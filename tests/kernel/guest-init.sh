#!/bin/sh
# /init of the VM tier's guest (busybox sh).  vm-tier.sh copies it into the
# initramfs.  It mounts the kernel's file systems, runs the guest tests (or the
# command of --cmd), reports on the serial ports and powers the guest off.
#
# Serial ports: ttyS0 is the kernel console; ttyS1 carries the results (the
# TAP of the tests with RTLA-VM-* markers, or the command's stdout, byte for
# byte); ttyS2 carries the command's stderr.
#
# Kernel command line, read from the environment the kernel gives init:
#   rtla_vm=6.12|6.1     the kernel's short name (VM_KERNEL of the tests)
#   rtla_vm_timeout=S    the watchdog: power off after S seconds whatever happens
#   rtla_vm_file_timeout=S   a test file that runs longer is killed
#   rtla_vm_shard=N      run only the test files listed in /vm/shards/KERNEL.N
#   rtla_vm_ports=hvc    results on /dev/hvc0, stderr on /dev/hvc1 (virtio
#                        consoles: arm64's -M virt has one UART), console ttyAMA0
#   rtla_vm_board=1      a board: no /run, no /dev/shm, no /etc/passwd
# A file /vm/filter (vm-tier.sh --filter) holds a regex: of the .bats files,
# only the tests whose names match it run.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C LC_ALL=C TERM=dumb
VM_KERNEL=${rtla_vm:-$(uname -r | cut -d. -f1,2)}
export VM_KERNEL
export RTLA=/usr/local/bin/rtla RTLA_PEER=/usr/bin/rtla-peer
unset rtla_vm

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
OUT=/dev/ttyS1 ERR=/dev/ttyS2 CON=/dev/ttyS0
if [ "${rtla_vm_ports:-}" = hvc ]; then
	OUT=/dev/hvc0 ERR=/dev/hvc1 CON=/dev/ttyAMA0
fi
mkdir -p /dev/pts /tmp /root
mount -t devpts devpts /dev/pts
if [ -z "${rtla_vm_board:-}" ]; then
	mkdir -p /dev/shm /run
	mount -t tmpfs tmpfs /dev/shm
fi
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
# rtla -C (and the 6.12 RT kernel's osnoise cgroup handling) needs cgroup2.
mount -t cgroup2 cgroup2 /sys/fs/cgroup
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
hostname rtla-vm

# Raw ports: no \r added, nothing echoed back.
for port in $OUT $ERR; do
	stty -F "$port" raw -echo
done
exec 3>$OUT 4>$ERR 5>$CON </dev/null

# Wait until the ports have sent all they hold, then power off.
finish() {
	for port in $OUT $ERR $CON; do
		stty -F "$port" -echo 2>/dev/null
	done
	sync
	poweroff -f
	sleep 5
	reboot -f
}

(
	sleep "${rtla_vm_timeout:-600}"
	echo "RTLA-VM-WATCHDOG ${rtla_vm_timeout:-600}" >&3
	echo "rtla-vm: watchdog: ${rtla_vm_timeout:-600} s passed, powering off" >&5
	finish
) &

begin="RTLA-VM-BEGIN $(uname -r) uptime=$(cut -d' ' -f1 /proc/uptime)"

if [ -f /vm/cmd ]; then
	echo "$begin" >&5
	# Through pipes, as in the tests: the command's output is no terminal.
	mkfifo /tmp/stdout /tmp/stderr
	cat /tmp/stdout >&3 &
	out=$!
	cat /tmp/stderr >&4 &
	err=$!
	(cd /root && exec bash /vm/cmd >/tmp/stdout 2>/tmp/stderr)
	rc=$?
	wait $out $err
	echo "RTLA-VM-END status=$rc" >&5
	finish
fi

echo "$begin" >&3

limit=${rtla_vm_file_timeout:-300}
# Run "$@" in a session of its own; kill the whole session when it has run
# for $limit seconds, and whatever it left running when it is done.
run_limited() {
	setsid "$@" &
	pid=$!
	(
		sleep "$limit"
		kill -s TERM "-$pid" 2>/dev/null || exit 0
		echo "# $name: killed after $limit s (RTLA_VM_FILE_TIMEOUT)" >&3
		sleep 3
		kill -s KILL "-$pid" 2>/dev/null
	) &
	watchdog=$!
	wait "$pid"
	rc=$?
	kill "$watchdog" 2>/dev/null
	kill -s KILL "-$pid" 2>/dev/null
	return "$rc"
}

# Kernel messages from here on are reported after the tests.
kmsg_start=$(dmesg -r | wc -l)

# The names of the .bats tests to run (bats -f): all, or vm-tier.sh --filter's.
filter=.
if [ -f /vm/filter ]; then filter=$(cat /vm/filter); fi

# The tests of every kernel and of this one, or of this guest's shard
# (rtla_vm_shard=N: the files listed in /vm/shards/KERNEL.N), in the order of
# their names.
if [ -n "${rtla_vm_shard:-}" ]; then
	sed 's|^|/vm/tests/|' "/vm/shards/$VM_KERNEL.$rtla_vm_shard"
else
	ls -d /vm/tests/all/* "/vm/tests/$VM_KERNEL"/* 2>/dev/null
fi | while read -r f; do
	[ -f "$f" ] && echo "${f##*/} $f"
done | sort | while read -r _ f; do
	name=${f#/vm/tests/}
	t0=$(cut -d' ' -f1 /proc/uptime)
	echo "RTLA-VM-FILE $name" >&3
	cd /tmp || exit
	case $f in
	*.bats)
		run_limited bats --tap -f "$filter" "$f" >&3 2>&3
		rc=$?
		;;
	*)
		run_limited bash "$f" >/tmp/out 2>&1
		rc=$?
		echo 1..1 >&3
		if [ "$rc" = 0 ]; then
			echo "ok 1 $name" >&3
		else
			echo "not ok 1 $name" >&3
			echo "# exit status $rc; its output:" >&3
			sed 's/^/#   /' /tmp/out >&3
		fi
		rm -f /tmp/out
		;;
	esac
	secs=$(awk -v t0="$t0" '{ printf "%.1f", $1 - t0 }' /proc/uptime)
	echo "RTLA-VM-FILE-END $name secs=$secs rc=$rc" >&3
done
# What the kernel said at warning level or worse while the tests ran (fails
# nothing, but is worth a look).
dmesg -r | tail -n "+$((kmsg_start + 1))" | grep -E '^<[0-4]>' | tail -n 60 |
	sed 's/^/RTLA-VM-KMSG /' >&3
echo "RTLA-VM-END" >&3
finish
