import type { NumberResource } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { table, type Output } from "../output.js";

/** `msgctl numbers`: GET /v1/numbers. */
export async function numbersList(flags: ConnectionFlags, out: Output): Promise<NumberResource[]> {
  const numbers = await connect(flags).numbers.list();
  out.result(numbers, (list) =>
    table(
      out.color,
      ["HANDLE", "CHANNELS", "LABEL", "STATUS"],
      list.map((n) => [
        n.handle,
        n.channels.join(",") + (n.whatsapp_api ? out.color.dim(` (${n.whatsapp_api})`) : ""),
        n.label,
        n.status === "online" ? out.color.green(n.status) : out.color.yellow(n.status),
      ]),
    ),
  );
  return numbers;
}
