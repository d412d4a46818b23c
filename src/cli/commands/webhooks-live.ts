import { chaosHeaderOf } from "../../client/chaos.js";
import { ConnectionError } from "../../client/http.js";
import type { Delivery, EventType, EventView } from "../../contract/index.js";
import { connect, stateDirOf, type ConnectionFlags } from "../connection.js";
import { readEventStream } from "../event-stream.js";
import { stopOnBrokenPipe } from "../exit.js";
import { listenSecret } from "../listen-secret.js";
import type { Output } from "../output.js";
import { colorStatus, parseEventList } from "./webhooks.js";

/** Options every long-running command takes: it stops when `signal` aborts (Ctrl-C in the CLI). */
export interface LiveOptions {
  signal?: AbortSignal;
}

/**
 * Resolves when `signal` aborts, or, when no signal is given (the CLI), on SIGINT/SIGTERM or when
 * the reader of the output goes away (`| head -1`): each is a way to say "stop", and listen must
 * delete its endpoint after any of them. One command runs per process, so nothing is unhooked.
 */
function untilStopped(signal: AbortSignal | undefined): { stopped: Promise<void>; controller: AbortController } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  if (signal?.aborted) stop();
  else if (signal) signal.addEventListener("abort", stop, { once: true });
  else {
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    stopOnBrokenPipe(stop);
  }
  const stopped = new Promise<void>((resolve) =>
    controller.signal.addEventListener("abort", () => resolve(), { once: true }),
  );
  return { stopped, controller };
}

/** Reads a server-sent stream until it ends or `signal` aborts; true when it ended by itself. */
async function drain<T>(response: Response, signal: AbortSignal, onItem: (item: T) => void): Promise<boolean> {
  try {
    for await (const item of readEventStream<T>(response)) onItem(item);
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  return !signal.aborted;
}

const clockTime = (iso: string) => iso.slice(11, 23);

/**
 * `msgctl webhooks tail [--events a,b]`: every event of the account as it is emitted, until
 * interrupted. Pretty lines by default; one JSON object per line (the event) with --json.
 */
export async function webhooksTail(
  options: ConnectionFlags & LiveOptions & { events?: string },
  out: Output,
): Promise<void> {
  const client = connect(options);
  const { controller } = untilStopped(options.signal);
  const response = await client.sandbox.stream({
    types: parseEventList(options.events) as EventType[] | undefined,
    signal: controller.signal,
  });
  // On stderr, so --json output stays pure; it also tells scripts the stream is live.
  out.note(out.color.dim(`Tailing events${options.events ? ` (${options.events})` : ""}. Ctrl-C to stop.`));
  const ended = await drain<EventView>(response, controller.signal, (event) => {
    if (out.json) return out.jsonLine(event);
    const { type: _type, ...fields } = event.payload;
    out.line(
      `${out.color.dim(clockTime(event.created_at))}  ${out.color.cyan(event.type.padEnd(20))}  ${out.color.dim(event.id)}  ${JSON.stringify(fields)}`,
    );
  });
  controller.abort();
  if (ended) throw new ConnectionError(client.http.url("messaging"), new Error("the event stream closed"));
}

/** What a row of `listen` names besides the event: the message (or conversation) it concerns. */
function subjectOf(event: EventView | undefined): string {
  const payload = (event?.payload ?? {}) as { message_id?: string; conversation_id?: string };
  if (payload.message_id) return `message ${payload.message_id}`;
  if (payload.conversation_id) return `conversation ${payload.conversation_id}`;
  return "";
}

/**
 * `msgctl webhooks listen --forward-to URL [--events a,b] [--secret S]`: creates an endpoint for
 * URL signed with the state directory's listen secret (kept from run to run) or `--secret`, prints
 * it, prints every delivery attempt to it (status code, latency, the message it concerns) as it
 * happens, and deletes the endpoint on Ctrl-C (SIGINT/SIGTERM), a closed output pipe, or when
 * `signal` aborts.
 */
export async function webhooksListen(
  options: ConnectionFlags & LiveOptions & { forwardTo: string; events?: string; secret?: string },
  out: Output,
): Promise<void> {
  const client = connect(options);
  const signing = options.secret ? { secret: options.secret, keptIn: undefined } : listenSecret(stateDirOf(options));
  const { controller, stopped } = untilStopped(options.signal);
  // The stream is opened first so the endpoint's very first attempt is not missed.
  const response = await client.webhooks.attempts({ signal: controller.signal });
  let webhookId: string | undefined;
  const early: Delivery[] = [];
  // Each event is read once for the message it concerns; rows are printed in the order they came.
  const events = new Map<string, Promise<EventView | undefined>>();
  const eventOf = (id: string) => {
    let found = events.get(id);
    if (!found) {
      found = client.sandbox.event(id).catch(() => undefined);
      events.set(id, found);
    }
    return found;
  };
  let printed: Promise<void> = Promise.resolve();
  const row = (delivery: Delivery, event: EventView | undefined) => {
    const attempt = delivery.attempts.at(-1);
    const ok = delivery.status === "succeeded";
    const mark = ok ? out.color.green("✔") : out.color.red("✘");
    const next = delivery.next_attempt_at ? out.color.dim(` next attempt ${delivery.next_attempt_at}`) : "";
    const chaos = attempt && chaosHeaderOf(delivery, attempt);
    // The outcome column is the status code, or ERR when no answer came; why ends the row.
    const code = attempt?.status_code != null ? String(attempt.status_code) : attempt ? "ERR" : "";
    const subject = subjectOf(event);
    return (
      `${mark} ${out.color.dim(clockTime(attempt?.at ?? delivery.created_at))}  ${delivery.event_type.padEnd(20)}  ${code.padEnd(3)}  ${String(attempt?.duration_ms ?? 0).padStart(5)} ms  ` +
      `${out.color.dim(`attempt ${attempt?.n ?? 0}`)}  ${colorStatus(out.color, delivery.status)}${next}` +
      `${subject ? `  ${subject}` : ""}  ${out.color.dim(`event ${delivery.event_id}`)}` +
      // Why it was not acknowledged: the connection's error, or the first line the receiver answered.
      (attempt?.error ? `  ${out.color.red(attempt.error)}` : "") +
      (chaos ? `  ${out.color.yellow(`chaos: ${chaos}`)}` : "")
    );
  };
  const show = (delivery: Delivery) => {
    if (out.json) return out.jsonLine({ event: "attempt", delivery });
    const event = eventOf(delivery.event_id);
    printed = printed.then(async () => out.line(row(delivery, await event)));
  };
  const draining = drain<Delivery>(response, controller.signal, (delivery) => {
    if (webhookId === undefined) early.push(delivery);
    else if (delivery.webhook_id === webhookId) show(delivery);
  });

  try {
    const { webhook } = await client.webhooks.create({
      url: options.forwardTo,
      events: parseEventList(options.events),
      secret: signing.secret,
    });
    webhookId = webhook.id;
    if (out.json) out.jsonLine({ event: "ready", webhook });
    else {
      out.line(
        `${out.color.green("Ready!")} Forwarding ${options.events ?? "every event"} to ${out.color.cyan(webhook.url)}`,
      );
      out.line(
        `Webhook signing secret: ${out.color.bold(webhook.secret)} ${out.color.dim(`(endpoint ${webhook.id})`)}`,
      );
      if (signing.keptIn)
        out.line(out.color.dim(`The same secret on every listen run here: it is kept in ${signing.keptIn}.`));
      if ("problem" in signing && signing.problem)
        out.note(
          out.color.yellow(`The secret could not be kept (${signing.problem}): the next run will have another.`),
        );
      out.line(out.color.dim("Ctrl-C to stop and delete the endpoint."));
    }
    for (const delivery of early.splice(0)) if (delivery.webhook_id === webhookId) show(delivery);
    const ended = await Promise.race([draining, stopped.then(() => false)]);
    if (ended) throw new ConnectionError(client.http.url("messaging"), new Error("the delivery stream closed"));
  } finally {
    controller.abort();
    await draining.catch(() => {});
    await printed;
    if (webhookId !== undefined) await removeEndpoint(client, webhookId, out);
  }
}

async function removeEndpoint(client: ReturnType<typeof connect>, id: string, out: Output): Promise<void> {
  try {
    await client.webhooks.delete(id);
    if (out.json) out.jsonLine({ event: "deleted", id });
    else out.line(out.color.dim(`Deleted webhook ${id}.`));
  } catch (error) {
    out.note(out.color.yellow(`Could not delete webhook ${id}: ${(error as Error).message}`));
  }
}
