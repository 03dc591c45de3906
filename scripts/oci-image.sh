#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The container image of a board bundle: an OCI image whose one layer holds
# the bundle alone (the static rtla and its links in /usr/bin, and the empty
# /tmp and /run a run record needs), rtla as its entry point, written as an
# OCI archive (the tar of an OCI image layout) that podman, skopeo or a
# registry's upload tool take as it is.
#
#   scripts/oci-image.sh BUNDLE-DIR ARCH VERSION OUT.tar
#
# Built with umoci (Debian's package), no daemon, no registry. Every time
# stamp is SOURCE_DATE_EPOCH (make passes the last commit's), so the same
# bundle gives the same image, byte for byte.
set -euo pipefail

die() { printf 'rtla oci: %s\n' "$*" >&2; exit 1; }

(($# == 4)) || die "usage: $0 BUNDLE-DIR ARCH VERSION OUT.tar"
bundle=$1 arch=$2 version=$3 out=$4
[[ -x $bundle/rtla ]] || die "$bundle: no rtla in it (make bundle)"
command -v umoci >/dev/null || die "needs umoci, which is not installed (apt-get install umoci)"
epoch=${SOURCE_DATE_EPOCH:-0}
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)

work=$(mktemp -d "${out%/*}/.oci.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root layout=$work/layout
mkdir -p "$root/usr/bin" "$root/tmp" "$root/run"
chmod 1777 "$root/tmp"
cp -a "$bundle/." "$root/usr/bin/"
find "$root" -exec touch -h -d "@$epoch" {} +

tag=rtla:$version    # podman load names it localhost/rtla:VERSION
umoci init --layout "$layout"
umoci new --image "$layout:$tag"
umoci insert --image "$layout:$tag" --history.created "$created" \
	--history.created_by "rtla bundle $version ($arch)" "$root" /
labels=(
	org.opencontainers.image.title=rtla
	org.opencontainers.image.description="real-time analysis and board bring-up diagnostics"
	org.opencontainers.image.version="$version"
	org.opencontainers.image.licenses=GPL-2.0-only
)
args=()
for l in "${labels[@]}"; do args+=(--config.label "$l"); done
umoci config --image "$layout:$tag" --no-history --created "$created" \
	--architecture "$arch" --os linux --config.entrypoint /usr/bin/rtla \
	--config.cmd --help --config.env PATH=/usr/bin --config.workingdir /tmp "${args[@]}"
# umoci's own garbage collection drops the layers the edits above replaced
umoci gc --layout "$layout"
find "$layout" -exec touch -h -d "@$epoch" {} +
tar -C "$layout" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
	-cf "$work/image.tar" .
mv "$work/image.tar" "$out"
