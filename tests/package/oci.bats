# The container image of "make oci": an OCI archive holding the bundle alone,
# loaded and run with podman as a CI pod would run it, with the privileges of
# the Kubernetes Job example (Documentation/examples/rtla-hwnoise-job.yaml).

load ../lib/helper
bats_require_minimum_version 1.5.0

JOB=$TOP/Documentation/examples/rtla-hwnoise-job.yaml

setup_file() {
	needs_root "podman and tracefs"
	VERSION=$(cat "$TOP/VERSION")
	ARCH=$(dpkg --print-architecture)
	BUILD=$(dirname "$RTLA")
	IMAGE=$BUILD/oci/rtla-$VERSION-$ARCH.oci.tar
	BUNDLE=$BUILD/bundle/rtla-$VERSION-$ARCH
	export VERSION ARCH BUILD IMAGE BUNDLE
	[ -f "$IMAGE" ] || { echo "no image $IMAGE (make oci)" >&2; return 1; }
	# podman with a store of the test's own, so the machine's images are left
	# alone. runc, not crun: crun refuses the hybrid cgroup layout of some
	# machines (this one); the limits at or below the caller's, which a
	# process without CAP_SYS_RESOURCE cannot raise (podman asks for more).
	cat >"$BATS_FILE_TMPDIR/containers.conf" <<-EOF
		[containers]
		default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
		netns = "none"
		[engine]
		runtime = "runc"
	EOF
}

setup() {
	needs_root "podman and tracefs"
	export CONTAINERS_CONF=$BATS_FILE_TMPDIR/containers.conf
	cd "$BATS_TEST_TMPDIR"
}

teardown_file() {
	if [ -d "$BATS_FILE_TMPDIR/store" ]; then
		pod rmi -a -f >/dev/null 2>&1 || true
		pod system reset -f >/dev/null 2>&1 || true
	fi
}

pod() {
	podman --root "$BATS_FILE_TMPDIR/store" --runroot "$BATS_FILE_TMPDIR/run" \
		--storage-driver vfs "$@"
}

# load_image: the image in the test's store, once
load_image() {
	if [ ! -e "$BATS_FILE_TMPDIR/loaded" ]; then
		pod load -q -i "$IMAGE"
		touch "$BATS_FILE_TMPDIR/loaded"
	fi
}

# blob DIGEST: a blob of the image's layout, unpacked in ./oci
blob() { cat "oci/blobs/sha256/${1#sha256:}"; }

@test "oci: one image rtla:VERSION whose one layer is the bundle alone, rtla its entry point" {
	mkdir oci
	tar -xf "$IMAGE" -C oci
	run jq -r '.manifests[] | .annotations["org.opencontainers.image.ref.name"]' oci/index.json
	[ "$output" = "rtla:$VERSION" ]
	manifest=$(jq -r '.manifests[0].digest' oci/index.json)
	run jq -r '.layers | length' <(blob "$manifest")
	[ "$output" -eq 1 ]
	config=$(blob "$(blob "$manifest" | jq -r .config.digest)")
	run jq -r '.architecture, .os, (.config.Entrypoint | join(" ")), (.config.Cmd | join(" "))' <<<"$config"
	echo "$output"
	[ "${lines[0]}" = "$ARCH" ]
	[ "${lines[1]}" = linux ]
	[ "${lines[2]}" = /usr/bin/rtla ]
	[ "${lines[3]}" = --help ]
	layer=$(blob "$manifest" | jq -r '.layers[0].digest')
	tar -tzf oci/blobs/sha256/"${layer#sha256:}" | sed 's#^\./##; s#/$##' | grep . | sort >layer.txt
	{ printf '%s\n' run tmp usr usr/bin; (cd "$BUNDLE" && ls | sed 's#^#usr/bin/#'); } | sort >want.txt
	diff want.txt layer.txt
	# the layer's rtla is the bundle's, byte for byte
	mkdir root
	tar -xzf oci/blobs/sha256/"${layer#sha256:}" -C root
	cmp root/usr/bin/rtla "$BUNDLE/rtla"
	[ "$(readlink root/usr/bin/hwnoise)" = rtla ]
}

@test "oci: the same bundle and commit time give the same image, byte for byte" {
	epoch=$(git -C "$TOP" log -1 --format=%ct)
	SOURCE_DATE_EPOCH=$epoch "$TOP/scripts/oci-image.sh" "$BUNDLE" "$ARCH" "$VERSION" "$PWD/again.tar"
	cmp "$IMAGE" again.tar
}

@test "oci: podman runs the image: --help, dhry, capdump" {
	load_image
	run pod run --rm "localhost/rtla:$VERSION"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "rtla: real-time analysis and board bring-up diagnostics (version $VERSION)" ]]
	run pod run --rm "localhost/rtla:$VERSION" dhry -c 0 -d 1s
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[1]} =~ ^\ +0\ +[0-9]+\ +[0-9.]+\ .*\ OK\  ]]
	# pid 1 of the container is rtla itself, with podman's default capabilities
	run pod run --rm "localhost/rtla:$VERSION" capdump 1
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[1]} =~ ^\ +1\ +0\ +0\ +rtla\  ]]
}

@test "oci: capdump's and mdwe's BPF passes in the container's PID namespace; a seccomp profile that refuses bpf is named" {
	load_image
	# podman's default seccomp profile refuses bpf(2) even with the capabilities
	run -1 --separate-stderr pod run --rm --cap-add=bpf,perfmon "localhost/rtla:$VERSION" \
		capdump -a --raw -n -o PID --method bpf
	[ "$stderr" = "rtla capdump: --method bpf: bpf(2) refused though rtla holds the capabilities it needs: a seccomp filter forbids it (a container runtime's default profile may)" ]
	[ -z "$output" ]
	# allowed: the pass sees the container's processes by its PIDs (rtla is
	# its PID 1, its parent outside: 0), as its /proc does
	run -0 --separate-stderr pod run --rm --cap-add=bpf,perfmon --security-opt seccomp=unconfined \
		"localhost/rtla:$VERSION" capdump -a -D --raw -n -o PID,PPID,COMMAND --method bpf
	echo "$output$stderr"
	[ "$output" = "1 0 rtla" ]
	[[ $stderr == "rtla capdump: debug: BPF: load "*", 1 processes" ]]
	run -0 --separate-stderr pod run --rm --cap-add=bpf,perfmon --security-opt seccomp=unconfined \
		"localhost/rtla:$VERSION" mdwe --all -D --raw -n -o PID,MDWE,WX
	echo "$output$stderr"
	[ "$output" = "1 - 0" ]
	[[ $stderr == "rtla mdwe: debug: BPF: load "*", 1 processes" ]]
}

# the capability names the Job adds, lower case, comma-separated
job_caps() {
	python3 -c '
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
assert job["kind"] == "Job" and job["apiVersion"] == "batch/v1", "not a batch/v1 Job"
(c,) = job["spec"]["template"]["spec"]["containers"]
caps = c["securityContext"]["capabilities"]
assert caps["drop"] == ["ALL"], "the Job does not drop every capability first"
assert c["securityContext"]["allowPrivilegeEscalation"] is False
assert not c["securityContext"].get("privileged")
print(",".join(sorted(x.lower() for x in caps["add"])))' "$JOB"
}

@test "oci: the Job example asks for the capabilities the VM test proves enough, nothing more" {
	run job_caps
	echo "$output"
	[ "$status" -eq 0 ]
	vm=$(sed -n 's/^JOB_CAPS=//p' "$TOP/tests/kernel/guest-6.12/22-container-privileges.bats")
	[ -n "$vm" ]
	[ "$output" = "$vm" ]
}

@test "oci: a sampler run in the image with the Job's capabilities and tracefs only" {
	load_image
	caps=$(job_caps)
	before=$(ls /sys/kernel/tracing/instances)
	run pod run --rm --cap-drop=all --cap-add="$caps" --security-opt=no-new-privileges \
		-v /sys/kernel/tracing:/sys/kernel/tracing "localhost/rtla:$VERSION" \
		osnoise top --backend sampler -c 0 -d 2s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"Operating System Noise"* ]]
	[[ $output =~ $'\n'\ +0\ \#[0-9]+\ +[0-9]+ ]]
	[ "$(ls /sys/kernel/tracing/instances)" = "$before" ]
}
