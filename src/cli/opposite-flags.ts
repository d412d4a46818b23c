import type { CommandUnknownOpts as Command } from "@commander-js/extra-typings";

const negationOf = (flag: string) => flag.replace(/^--/, "--no-");

/**
 * Makes a flag given together with its `--no-` form (`--imessage --no-imessage`) a usage error,
 * in commander's own words for conflicting options. `Option.conflicts` cannot see this case: both
 * forms set one value, so without this the last one given would silently win.
 */
export function refuseFlagWithItsNegation(command: Command, flags: readonly string[]): Command {
  const given: string[] = [];
  for (const flag of flags) {
    for (const form of [flag, negationOf(flag)]) command.on(`option:${form.slice(2)}`, () => given.push(form));
  }
  return command.hook("preAction", () => {
    const seen = given.splice(0);
    for (const flag of flags) {
      const [first, ...rest] = seen.filter((form) => form === flag || form === negationOf(flag));
      const opposite = rest.find((form) => form !== first);
      if (first && opposite)
        command.error(`error: option '${first}' cannot be used with option '${opposite}'`, {
          exitCode: 2,
          code: "commander.conflictingOption",
        });
    }
  });
}
