import { shellDataFunctions } from "./shell-data.js";
import type { CompletionTree } from "./tree.js";

/**
 * The bash completion script. `_msgctl` walks the words typed so far to the command they name
 * (skipping flags and their values), then offers that command's subcommands, its flags (after
 * `-`), a flag's values (choices, event names, comma lists, files) or its argument's values.
 * Plain bash 3.2 (macOS's): no associative arrays, no bash-completion helpers.
 */
export function bashScript(tree: CompletionTree, version: string): string {
  return `# msgctl ${version}: completion for bash, written by \`msgctl completion bash\`.
# This shell:   source <(msgctl completion bash)
# Every shell:  msgctl completion bash > ~/.local/share/bash-completion/completions/msgctl
#               (or add the line above to ~/.bashrc)

${shellDataFunctions(tree, false)}

# True when word $2 is one of the words in $1.
_msgctl_has() {
  local item
  for item in $1; do [ "$item" = "$2" ] && return 0; done
  return 1
}

_msgctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local path="" word flag="" expect="" values i=1 stop=$COMP_CWORD
  COMPREPLY=()
  # bash splits --flag=value at "=": complete the value of the flag before it.
  if [ "$cur" = "=" ]; then
    flag="$prev" cur="" stop=$((COMP_CWORD - 1))
  elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
    flag="\${COMP_WORDS[COMP_CWORD-2]}" stop=$((COMP_CWORD - 2))
  fi
  while [ "$i" -lt "$stop" ]; do
    word="\${COMP_WORDS[i]}"
    if [ "$word" = "=" ]; then
      expect=1
    elif [ -n "$expect" ]; then
      expect=""
    elif [ "\${word#-}" != "$word" ]; then
      _msgctl_has "$(_msgctl_value_flags "$path")" "$word" && expect=1
    elif _msgctl_has "$(_msgctl_subcommands "$path")" "$word"; then
      path="\${path:+$path }$word"
    fi
    i=$((i + 1))
  done
  # The word before this one is a flag that takes a value: complete the value.
  if [ -z "$flag" ] && [ -n "$expect" ]; then flag="$prev"; fi
  if [ -n "$flag" ]; then
    values="$(_msgctl_flag_values "$path" "$flag")"
    case "$values" in
      @files*)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
        ;;
      @comma*)
        values="\${values#@comma}"
        local prefix=""
        case "$cur" in *,*) prefix="\${cur%,*},"; cur="\${cur##*,}" ;; esac
        compopt -o nospace 2>/dev/null
        COMPREPLY=($(compgen -P "$prefix" -W "$values" -- "$cur"))
        ;;
      *) COMPREPLY=($(compgen -W "$values" -- "$cur")) ;;
    esac
    return 0
  fi
  case "$cur" in
    -*) COMPREPLY=($(compgen -W "$(_msgctl_flags "$path")" -- "$cur")) ;;
    *)
      values="$(_msgctl_subcommands "$path")"
      [ -z "$values" ] && values="$(_msgctl_argument_values "$path")"
      COMPREPLY=($(compgen -W "$values" -- "$cur"))
      ;;
  esac
  return 0
}

complete -F _msgctl msgctl
`;
}
