import type { ClockView } from "../../contract/index.js";
import { parseDuration } from "../../lib/duration.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { details, type Output } from "../output.js";
import { UsageError } from "../usage-error.js";

const show = (out: Output) => (clock: ClockView) =>
  details(out.color, [
    ["now", clock.now],
    [
      "mode",
      clock.mode === "manual"
        ? `${clock.mode} ${out.color.dim("(moves only with `msgctl clock advance`)")}`
        : clock.mode,
    ],
  ]);

/** `msgctl clock`: the sandbox's time and mode; `--json` prints `{ now, mode }`. */
export async function clockShow(flags: ConnectionFlags, out: Output): Promise<ClockView> {
  const clock = await connect(flags).sandbox.clock();
  out.result(clock, show(out));
  return clock;
}

/** `msgctl clock advance DURATION`: runs everything due up to now + DURATION, then returns. */
export async function clockAdvance(duration: string, flags: ConnectionFlags, out: Output): Promise<ClockView> {
  try {
    parseDuration(duration);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // Sent as given, not as milliseconds: the sandbox then says what is wrong with it (past year
  // 9999) in the duration's terms, not in those of an `ms` field the user never wrote.
  const clock = await connect(flags).sandbox.advance(duration);
  out.result(clock, show(out));
  return clock;
}
