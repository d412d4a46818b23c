import type { AccountView, Fixture } from "../../contract/index.js";
import { isAppError } from "../../lib/app-error.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { table, type Output } from "../output.js";
import { UsageError } from "../usage-error.js";

/** `msgctl reset [--fixture PATH]`: wipes every account's state and re-seeds. */
export async function reset(
  options: ConnectionFlags & { fixture?: string },
  out: Output,
): Promise<{ accounts: AccountView[] }> {
  let fixture: Fixture | undefined;
  if (options.fixture) {
    try {
      // Validated here first, so a bad file never reaches (or wipes) the sandbox. The parser (zod,
      // libphonenumber) is loaded only then: a plain reset stays a light client call.
      const { loadFixtureFile } = await import("../../runtime/fixture-source.js");
      fixture = loadFixtureFile(options.fixture);
    } catch (error) {
      throw isAppError(error) ? new UsageError(error.message) : error;
    }
  }
  const result = await connect(options).sandbox.reset(fixture);
  out.result(result, ({ accounts }) => [
    out.color.green("Sandbox reset."),
    ...table(
      out.color,
      ["ACCOUNT", "API KEY", "OTP KEY", "NUMBERS"],
      accounts.map((a) => [a.name, a.api_key, a.otp_api_key, a.numbers.map((n) => n.handle).join(", ")]),
    ),
  ]);
  return result;
}
