import { isEventType, type EventType } from "../../contract/names.js";
import { triggerEvent, triggerList, type TriggerResult } from "../../client/trigger.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { details, table, type Output } from "../output.js";
import { UsageError } from "../usage-error.js";

/** `msgctl trigger --list`: every event trigger can cause, and how. */
function triggerListCommand(out: Output): ReturnType<typeof triggerList> {
  const list = triggerList();
  out.result(list, (rows) =>
    table(
      out.color,
      ["EVENT", "DOES"],
      rows.map((row) => [row.event, row.does]),
    ),
  );
  return list;
}

/** `msgctl trigger EVENT`: runs the real actions that cause EVENT and prints what they created (`--list`: names them). */
export async function trigger(
  event: string | undefined,
  options: ConnectionFlags & { list?: boolean },
  out: Output,
): Promise<TriggerResult | ReturnType<typeof triggerList>> {
  if (options.list) return triggerListCommand(out);
  if (!event) throw new UsageError("Name an event to trigger, or run `msgctl trigger --list`");
  if (!isEventType(event)) throw new UsageError(`Unknown event "${event}" (msgctl trigger --list names them)`);
  const result = await triggerEvent(connect(options), event as EventType);
  out.result(result, ({ event: emitted, created, advanced_ms }) => {
    const c = out.color;
    const made = created.message ?? created.inbound;
    return [
      `${c.green("Triggered")} ${c.bold(emitted.type)}`,
      ...details(c, [
        ["event", `${emitted.id} (seq ${emitted.seq}) at ${emitted.created_at}`],
        ...(made
          ? ([[made.direction === "inbound" ? "inbound" : "message", `${made.id} ${JSON.stringify(made.text)}`]] as [
              string,
              unknown,
            ][])
          : []),
        ...(created.conversation_id ? ([["conversation", created.conversation_id]] as [string, unknown][]) : []),
        ["clock", advanced_ms > 0 ? `advanced ${advanced_ms} ms (manual)` : "not advanced"],
      ]),
    ];
  });
  return result;
}
