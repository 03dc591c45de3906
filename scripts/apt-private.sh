# Apt with a private state: the Debian archive this machine's own apt sources
# name, and a configuration that keeps /etc/apt, its lists and dpkg's package
# database out.  Sourced by tests/kernel/fetch.sh (the VM tier's cache) and
# scripts/cross-sysroot.sh (the cross build's sysroot); not run.
# shellcheck shell=bash

# Print "suite uri keyring" for every enabled deb source of this machine, from
# one-line .list files and deb822 .sources files alike.
host_sources() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -f $f ]] || continue
		awk '
		$1 != "deb" { next }
		{
			key = "-"; i = 2
			if ($2 ~ /^\[/) {
				opts = ""
				for (; i <= NF; i++) {
					opts = opts " " $i
					if ($i ~ /\]$/) { i++; break }
				}
				if (match(opts, /signed-by=[^] ]+/))
					key = substr(opts, RSTART + 10, RLENGTH - 10)
			}
			print $(i + 1), $i, key
		}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		awk '
		function flush(   n, s, u, i, j) {
			if (types ~ /(^| )deb( |$)/ && tolower(enabled) !~ /^(no|false)$/) {
				n = split(suites, s, " "); split(uris, u, " ")
				for (i = 1; i <= n; i++)
					for (j = 1; j in u; j++)
						print s[i], u[j], (key ~ /^\// ? key : "-")
			}
			types = suites = uris = key = enabled = field = ""
		}
		/^#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^[ \t]/ { if (field == "suites") suites = suites " " $0; next }
		{
			field = tolower(substr($0, 1, index($0, ":") - 1))
			value = substr($0, index($0, ":") + 1)
			gsub(/^[ \t]+|[ \t]+$/, "", value)
			if (field == "types") types = value
			else if (field == "uris") uris = value
			else if (field == "suites") suites = value
			else if (field == "signed-by") key = value
			else if (field == "enabled") enabled = value
		}
		END { flush() }' "$f"
	done
}

# The Debian archive: the source that serves bookworm (or else trixie) itself,
# not the security archive.
find_archive() {
	local suite uri key best="" rank best_rank=9
	while read -r suite uri key; do
		case $suite in
		bookworm) rank=1 ;;
		trixie) rank=2 ;;
		bookworm-updates | bookworm-backports | trixie-updates) rank=3 ;;
		*) continue ;;
		esac
		if ((rank < best_rank)); then
			best="$uri $key"
			best_rank=$rank
		fi
	done < <(host_sources)
	[[ -n $best ]] || return 1
	echo "$best"
}

# Print an apt configuration for a private state under $1 (state/, cache/,
# empty/, sources.list), downloads kept in $2, for architecture $3.  apt reads
# APT_CONFIG before its parts folder, so this keeps every file of /etc/apt out,
# except the few settings needed to reach the archive at all (proxies, a
# snapshot mirror's Valid-Until), which are copied.
private_apt_conf() {
	local dir=$1 debs=$2 arch=$3
	apt-config dump 2>/dev/null |
		grep -E '^Acquire::(Check-Valid-Until|Check-Date|Retries|https?::Proxy|https?::proxy|ftp::Proxy) ' || true
	cat <<EOC
Dir::State "$dir/state";
Dir::State::status "$dir/state/status";
Dir::Cache "$dir/cache";
Dir::Cache::archives "$debs";
Dir::Etc::main "/dev/null";
Dir::Etc::parts "$dir/empty";
Dir::Etc::sourcelist "$dir/sources.list";
Dir::Etc::sourceparts "$dir/empty";
Dir::Etc::preferences "$dir/empty/preferences";
Dir::Etc::preferencesparts "$dir/empty";
Dir::Log "$dir";
APT::Architecture "$arch";
APT::Architectures { "$arch"; };
APT::Get::AllowUnauthenticated "false";
Acquire::Languages "none";
EOC
}
