import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import type { ConnectionFlags } from "./connection.js";
import { processOutput, type Output } from "./output.js";

/** The global flags (program.ts), which every command receives merged into its own. */
export interface GlobalFlags extends ConnectionFlags {
  stateDir: string;
  json?: boolean;
}

// biome-ignore lint: any is what lets every function signature through this constraint.
type AnyFunction = (...args: any[]) => unknown;

/** The names of a module's exported functions. */
type FunctionNames<M> = { [K in keyof M]: M[K] extends AnyFunction ? K : never }[keyof M];

type ParametersOf<F> = F extends (...args: infer P) => unknown ? P : never;

/** The parameters before the `Output` one: the command's arguments, then its options. */
type BeforeOutput<P extends unknown[], Seen extends unknown[] = []> = P extends [infer Head, ...infer Tail]
  ? [Head] extends [Output]
    ? Seen
    : BeforeOutput<Tail, [...Seen, Head]>
  : never;

/** The parameters after the registrar's `leading` value, if it gives one. */
type AfterLeading<P extends unknown[], Leading extends unknown[]> = Leading extends []
  ? P
  : P extends [unknown, ...infer Rest]
    ? Rest
    : never;

/** What a command function takes from commander: its arguments, its own flags, the command. */
type Received<F, Leading extends unknown[]> =
  AfterLeading<BeforeOutput<ParametersOf<F>>, Leading> extends [...infer Args, infer Options]
    ? [...Args, Omit<Options, keyof GlobalFlags>, CommandUnknownOpts]
    : never;

type FirstParameter<F> = ParametersOf<F> extends [infer First, ...unknown[]] ? First : never;

/**
 * A command's action, for commander's `.action()`: when the command runs, imports its module
 * (`load`, a dynamic import) and calls the function `name` with `leading` (a value fixed by the
 * registrar, such as which of two sibling commands ran), the command's arguments, its flags merged
 * with the global ones, and the output. A command's module is loaded only when that command runs,
 * so `msgctl --help` and every other command load none of it.
 *
 * The types tie the declaration to the function: the arguments and flags the command declares
 * (their parsers and choices included) must be what the function's parameters take, or the
 * registrar does not compile.
 */
export function action<M, K extends FunctionNames<M>, Leading extends [] | [FirstParameter<M[K]>] = []>(
  load: () => Promise<M>,
  name: K,
  ...leading: Leading
): (...received: Received<M[K], Leading>) => Promise<void> {
  return async (...received) => {
    // Commander passes the arguments, then the command's own flags, then the command.
    const command = received.at(-1) as CommandUnknownOpts;
    const flags = command.optsWithGlobals() as unknown as GlobalFlags;
    const run = (await load())[name] as AnyFunction;
    const out: Output = processOutput(flags.json === true);
    await run(...leading, ...received.slice(0, -2), flags, out);
  };
}
