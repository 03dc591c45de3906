# SPDX-License-Identifier: GPL-2.0-only
# bash completion for rtla, and for its osnoise, hwnoise and timerlat links.
#
# The candidates come from rtla itself ("rtla __complete CWORD WORD..."),
# which reads them from each command's option description, so this file
# never lists an option and never goes stale. rtla answers one candidate a
# line, or "@file", "@dir" or "@program" to let bash complete names.

_rtla()
{
	local cur words cword reply line quoted=
	local -a candidates=()

	if declare -F _get_comp_words_by_ref >/dev/null; then
		_get_comp_words_by_ref -n : cur words cword
	else
		cur=${COMP_WORDS[COMP_CWORD]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	fi
	# a word begun with a quote ('max_single_us>20' must be one word): readline
	# completes what follows the quote, and closes it
	case $cur in \'* | \"*) cur=${cur:1} quoted=1 ;; esac
	reply=$("${words[0]}" __complete "$cword" "${words[@]:0:cword}" "$cur" \
		"${words[@]:cword+1}" 2>/dev/null) || return 0

	while IFS= read -r line; do
		case $line in
		@file) mapfile -t -O "${#candidates[@]}" candidates < <(compgen -f -- "$cur")
			compopt -o filenames 2>/dev/null ;;
		@dir) mapfile -t -O "${#candidates[@]}" candidates < <(compgen -d -- "$cur")
			compopt -o filenames 2>/dev/null ;;
		@program) mapfile -t -O "${#candidates[@]}" candidates < <(compgen -c -- "$cur") ;;
		"$cur"*) # "max_single_us>" as a word of its own: max_single_us\>
			if [[ -z $quoted && $line == *[\<\>]* ]]; then printf -v line %q "$line"; fi
			candidates+=("$line") ;;
		esac
	done <<<"$reply"
	[ "$cur" = "=" ] && mapfile -t candidates <<<"$reply"
	# "signal,num=", "f:", "max_single_us>": the word goes on
	if [ "${#candidates[@]}" -eq 1 ] && [[ ${candidates[0]} == *[=:,\<\>] ]]; then
		compopt -o nospace 2>/dev/null
	fi
	COMPREPLY=("${candidates[@]}")
}

complete -F _rtla rtla osnoise hwnoise timerlat
