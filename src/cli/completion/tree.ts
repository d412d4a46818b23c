import type { CommandUnknownOpts, Help, Option } from "@commander-js/extra-typings";
import { completionHint } from "../completion-hints.js";

/**
 * The program's commands and flags as the shell completion scripts need them, read from the
 * commander program itself (what `--help` shows), so that completion never lags behind the CLI.
 */

/** A flag: its spellings, and what it takes. */
export interface CompletionFlag {
  /** `--port`, and `-o` where there is a short one. */
  names: string[];
  description: string;
  /** It takes a value (`--port <port>`); its values, when known; files, when its value is a path. */
  takesValue: boolean;
  values?: readonly string[];
  commaSeparated?: boolean;
  files?: boolean;
}

/** A command: its words from the program (`webhooks create`), subcommands, own flags, arguments' values. */
export interface CompletionCommand {
  path: string;
  name: string;
  description: string;
  subcommands: CompletionCommand[];
  flags: CompletionFlag[];
  /** The values of its first argument, when known (`trigger <event>`). */
  argumentValues?: readonly string[];
}

/** The whole program: its commands, and the flags every command takes (the program's own). */
export interface CompletionTree {
  root: CompletionCommand;
  globalFlags: CompletionFlag[];
}

function flagOf(option: Option): CompletionFlag {
  const hint = completionHint(option);
  const takesValue = option.required || option.optional;
  const placeholder = /<([^>]+)>|\[([^\]]+)\]/.exec(option.flags);
  const valueName = placeholder?.[1] ?? placeholder?.[2] ?? "";
  return {
    names: [option.long, option.short].filter((name): name is string => Boolean(name)),
    description: option.description,
    takesValue,
    values: hint?.values ?? option.argChoices,
    commaSeparated: hint?.commaSeparated,
    files: takesValue && !hint && !option.argChoices && /path|file|dir/.test(valueName),
  };
}

function commandOf(command: CommandUnknownOpts, help: Help, path: string, skip: Set<string>): CompletionCommand {
  const first = command.registeredArguments[0];
  return {
    path,
    name: command.name(),
    description: command.description(),
    subcommands: help
      .visibleCommands(command)
      .filter((sub) => sub.name() !== "help")
      .map((sub) => commandOf(sub, help, path ? `${path} ${sub.name()}` : sub.name(), skip)),
    flags: help
      .visibleOptions(command)
      .filter((option) => !skip.has(option.long ?? ""))
      .map(flagOf),
    argumentValues: first ? (completionHint(first)?.values ?? first.argChoices) : undefined,
  };
}

/** The completion tree of a program. */
export function completionTree(program: CommandUnknownOpts): CompletionTree {
  const help = program.createHelp();
  const globalFlags = help.visibleOptions(program).map(flagOf);
  // Every command takes the program's flags; each lists only its own (and --help, once, as global).
  const skip = new Set(globalFlags.map((flag) => flag.names[0] ?? ""));
  return { root: commandOf(program, help, "", skip), globalFlags };
}

/** Every command of the tree, the root first. */
export function allCommands(command: CompletionCommand): CompletionCommand[] {
  return [command, ...command.subcommands.flatMap(allCommands)];
}
