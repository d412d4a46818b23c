import { allCommands, type CompletionFlag, type CompletionTree } from "./tree.js";

/**
 * The completion tree as shell functions that bash and zsh both run (POSIX `case` and `printf`):
 * each answers one question about the command at a path (`webhooks create`), one word a line.
 */

/** A shell word in single quotes. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const lines = (words: readonly string[]) => `printf '%s\\n' ${words.map(quote).join(" ")}`;

/** A `case` over the command path (`$1`) answering `answer(command)` where it is not empty. */
function casePerCommand(tree: CompletionTree, answer: (flags: CompletionFlag[], path: string) => string[]): string {
  const arms = allCommands(tree.root)
    .map((command) => [command.path, answer(command.flags, command.path)] as const)
    .filter(([, words]) => words.length > 0)
    .map(([path, words]) => `    ${quote(path)}) ${lines(words)} ;;`);
  return arms.length > 0 ? `  case "$1" in\n${arms.join("\n")}\n  esac\n` : "";
}

/** What a flag completes to: `@files`, `@comma` then its values, its values, or nothing. */
function valueLines(flag: CompletionFlag): string[] {
  if (flag.files) return ["@files"];
  if (!flag.values) return [];
  return flag.commaSeparated ? ["@comma", ...flag.values] : [...flag.values];
}

/** The data functions: `_msgctl_subcommands`, `_msgctl_flags`, `_msgctl_value_flags`, `_msgctl_flag_values`, `_msgctl_argument_values`. */
export function shellDataFunctions(tree: CompletionTree, described: boolean): string {
  const commands = allCommands(tree.root);
  const withDescription = (name: string, description: string) =>
    described ? `${name.replace(/:/g, "\\:")}:${description}` : name;
  const flagWords = (flags: CompletionFlag[]) =>
    flags.flatMap((flag) => flag.names.map((name) => withDescription(name, flag.description)));
  const valueFlagWords = (flags: CompletionFlag[]) =>
    flags.filter((flag) => flag.takesValue).flatMap((flag) => flag.names);

  const subcommandArms = commands
    .filter((command) => command.subcommands.length > 0)
    .map(
      (command) =>
        `    ${quote(command.path)}) ${lines(command.subcommands.map((sub) => withDescription(sub.name, sub.description)))} ;;`,
    );
  const valueArms = [
    ...commands.flatMap((command) =>
      command.flags.flatMap((flag) =>
        flag.names
          .map((name) => [`${command.path}|${name}`, valueLines(flag)] as const)
          .filter(([, words]) => words.length > 0),
      ),
    ),
    ...tree.globalFlags.flatMap((flag) =>
      flag.names.map((name) => [`*|${name}`, valueLines(flag)] as const).filter(([, words]) => words.length > 0),
    ),
  ].map(([key, words]) => `    ${key.startsWith("*|") ? `*${quote(key.slice(1))}` : quote(key)}) ${lines(words)} ;;`);
  const argumentArms = commands
    .filter((command) => command.argumentValues)
    .map((command) => `    ${quote(command.path)}) ${lines(command.argumentValues ?? [])} ;;`);
  const caseOf = (arms: string[], key = "$1") =>
    arms.length > 0 ? `  case "${key}" in\n${arms.join("\n")}\n  esac\n` : "";

  return [
    `_msgctl_subcommands() {\n${caseOf(subcommandArms)}  return 0\n}`,
    `_msgctl_flags() {\n${casePerCommand(tree, (flags) => flagWords(flags))}  ${lines(flagWords(tree.globalFlags))}\n}`,
    `_msgctl_value_flags() {\n${casePerCommand(tree, (flags) => valueFlagWords(flags))}  ${lines(valueFlagWords(tree.globalFlags))}\n}`,
    `_msgctl_flag_values() {\n${caseOf(valueArms, "$1|$2")}  return 0\n}`,
    `_msgctl_argument_values() {\n${caseOf(argumentArms)}  return 0\n}`,
  ].join("\n\n");
}
