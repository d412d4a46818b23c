import { allCommands, type CompletionFlag, type CompletionTree } from "./tree.js";

/**
 * The fish completion script: \`__msgctl_path\` walks the words typed so far to the command they
 * name (as the bash script does), and one \`complete\` line per subcommand and flag offers it
 * where that command is the one typed.
 */

/** A fish word in single quotes. */
const quote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

function flagLine(flag: CompletionFlag, condition: string): string {
  const parts = ["complete -c msgctl"];
  if (condition) parts.push(`-n ${quote(condition)}`);
  for (const name of flag.names) parts.push(name.startsWith("--") ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
  if (flag.files) parts.push("-r -F");
  else if (flag.values) parts.push(`-x -a ${quote(flag.values.join(" "))}`);
  else if (flag.takesValue) parts.push("-x");
  parts.push(`-d ${quote(flag.description)}`);
  return parts.join(" ");
}

export function fishScript(tree: CompletionTree, version: string): string {
  const commands = allCommands(tree.root);
  const switchOf = (pick: (path: string) => string[]) =>
    commands
      .map((command) => [command.path, pick(command.path)] as const)
      .filter(([, words]) => words.length > 0)
      .map(([path, words]) => `    case ${quote(path)}\n      printf '%s\\n' ${words.map(quote).join(" ")}`)
      .join("\n");
  const byPath = new Map(commands.map((command) => [command.path, command]));
  const valueFlags = (path: string) =>
    [...(byPath.get(path)?.flags ?? []), ...tree.globalFlags].filter((f) => f.takesValue).flatMap((f) => f.names);
  const at = (path: string) => `__msgctl_at ${quote(path)}`;
  const completions = commands.flatMap((command) => [
    ...command.subcommands.map(
      (sub) => `complete -c msgctl -n ${quote(at(command.path))} -a ${quote(sub.name)} -d ${quote(sub.description)}`,
    ),
    ...(command.argumentValues
      ? [`complete -c msgctl -n ${quote(at(command.path))} -a ${quote(command.argumentValues.join(" "))}`]
      : []),
    ...command.flags.map((flag) => flagLine(flag, at(command.path))),
  ]);
  return `# msgctl ${version}: completion for fish, written by \`msgctl completion fish\`.
# This shell:   msgctl completion fish | source
# Every shell:  msgctl completion fish > ~/.config/fish/completions/msgctl.fish

function __msgctl_subcommands
  switch "$argv[1]"
${switchOf((path) => byPath.get(path)?.subcommands.map((sub) => sub.name) ?? [])}
  end
end

function __msgctl_value_flags
  switch "$argv[1]"
${switchOf(valueFlags)}
  end
end

# The command the words typed so far name ("webhooks create"), flags and their values skipped.
function __msgctl_path
  set -l path
  set -l expect 0
  for word in (commandline -opc)[2..-1]
    if test $expect = 1
      set expect 0
    else if string match -q -- '--*=*' $word
      continue
    else if string match -q -- '-*' $word
      contains -- $word (__msgctl_value_flags (string join ' ' $path)); and set expect 1
    else if contains -- $word (__msgctl_subcommands (string join ' ' $path))
      set -a path $word
    end
  end
  string join ' ' $path
end

function __msgctl_at
  set -l path (__msgctl_path)
  test "$path" = "$argv[1]"
end

complete -c msgctl -f
${tree.globalFlags.map((flag) => flagLine(flag, "")).join("\n")}
${completions.join("\n")}
`;
}
