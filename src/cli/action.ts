import type { Command } from "commander";
import type { ConnectionFlags } from "./connection.js";
import { processOutput, type Output } from "./output.js";

/** The global flags (program.ts), which every command receives merged into its own. */
export interface GlobalFlags extends ConnectionFlags {
  stateDir: string;
  json?: boolean;
}

type AnyFunction = (...args: never[]) => unknown;

/** The names of a module's exported functions. */
type FunctionNames<M> = { [K in keyof M]: M[K] extends AnyFunction ? K : never }[keyof M];

type FirstParameter<F> = F extends (first: infer P, ...rest: never[]) => unknown ? P : never;

/**
 * A command's action, for commander's `.action()`: when the command runs, imports its module
 * (`load`, a dynamic import) and calls the function `name` with `leading` (a value fixed by the
 * registrar, such as which of two sibling commands ran), the command's arguments, its flags merged
 * with the global ones, and the output. A command's module is loaded only when that command runs,
 * so `msgctl --help` and every other command load none of it.
 */
export function action<M, K extends FunctionNames<M>>(
  load: () => Promise<M>,
  name: K,
  ...leading: [] | [FirstParameter<M[K]>]
): (...received: unknown[]) => Promise<void> {
  return async (...received) => {
    // Commander passes the arguments, then the command's own flags, then the command.
    const command = received.at(-1) as Command;
    const flags = command.optsWithGlobals<GlobalFlags>();
    const run = (await load())[name] as (...args: unknown[]) => unknown;
    const out: Output = processOutput(flags.json === true);
    await run(...leading, ...received.slice(0, -2), flags, out);
  };
}
