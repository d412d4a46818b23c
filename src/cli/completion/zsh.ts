import { shellDataFunctions } from "./shell-data.js";
import type { CompletionTree } from "./tree.js";

/**
 * The zsh completion script: the same walk as bash's (bash.ts), with zsh's own completion
 * functions, so subcommands and flags show their descriptions.
 */
export function zshScript(tree: CompletionTree, version: string): string {
  return `#compdef msgctl
# msgctl ${version}: completion for zsh, written by \`msgctl completion zsh\`.
# This shell (after compinit):  source <(msgctl completion zsh)
# Every shell:  msgctl completion zsh > "\${fpath[1]}/_msgctl"   (then start a new shell)

${shellDataFunctions(tree, true)}

_msgctl() {
  local cmdpath="" word flag="" expect="" cur="\${words[CURRENT]}" i=2
  local -a values names
  while (( i < CURRENT )); do
    word="\${words[i]}"
    if [[ -n "$expect" ]]; then
      expect=""
    elif [[ "$word" == --*=* ]]; then
      :
    elif [[ "$word" == -* ]]; then
      values=(\${(f)"$(_msgctl_value_flags "$cmdpath")"})
      (( \${values[(Ie)$word]} )) && expect=1
    else
      names=(\${\${(f)"$(_msgctl_subcommands "$cmdpath")"}%%:*})
      (( \${names[(Ie)$word]} )) && cmdpath="\${cmdpath:+$cmdpath }$word"
    fi
    (( i++ ))
  done
  if [[ -n "$expect" ]]; then
    flag="\${words[CURRENT-1]}"
  elif [[ "$cur" == --*=* ]]; then
    flag="\${cur%%=*}"
    compset -P '*='
    cur="\${cur#*=}"
  fi
  if [[ -n "$flag" ]]; then
    values=(\${(f)"$(_msgctl_flag_values "$cmdpath" "$flag")"})
    if [[ "\${values[1]}" == "@files" ]]; then
      _files
    elif [[ "\${values[1]}" == "@comma" ]]; then
      compset -P '*,'
      compadd -S ',' -q -a 'values[2,-1]'
    elif (( \${#values} )); then
      compadd -a values
    fi
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    values=(\${(f)"$(_msgctl_flags "$cmdpath")"})
    _describe -t flags 'flag' values
    return 0
  fi
  values=(\${(f)"$(_msgctl_subcommands "$cmdpath")"})
  if (( \${#values} )); then
    _describe -t commands 'command' values
  else
    values=(\${(f)"$(_msgctl_argument_values "$cmdpath")"})
    (( \${#values} )) && compadd -a values
  fi
  return 0
}

if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _msgctl "$@"
else
  compdef _msgctl msgctl
fi
`;
}
