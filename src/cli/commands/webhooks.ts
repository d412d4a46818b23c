import type { ChalkInstance } from "chalk";
import type {
  CreatedWebhook,
  Delivery,
  DeliveryAttempt,
  WebhookResource,
  WebhookWithSecret,
} from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { details, table, type Output } from "../output.js";
import { UsageError } from "../usage-error.js";

/** `--events a,b` → names (the server checks them: an unknown one is 400). */
export function parseEventList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new UsageError("--events takes a comma-separated list of event names, e.g. message.sent,message.read");
  return names;
}

const ALL_EVENTS_COUNT = 9;

/** Lines describing one endpoint (and its secret when the answer has one). */
export function webhookDetails(color: ChalkInstance, webhook: WebhookResource & { secret?: string }): string[] {
  const entries: [string, unknown][] = [
    ["id", webhook.id],
    ["url", webhook.url],
    [
      "events",
      webhook.events.length === ALL_EVENTS_COUNT ? `all (${webhook.events.join(", ")})` : webhook.events.join(", "),
    ],
    ["enabled", webhook.enabled ? color.green("yes") : color.yellow("no (paused)")],
    ["created", webhook.created_at],
    ["updated", webhook.updated_at],
  ];
  if (webhook.secret) entries.push(["secret", color.bold(webhook.secret)]);
  return details(color, entries);
}

/** `msgctl webhooks create --url U [--events a,b] [--secret S] [--idempotency-key K]`. */
export async function webhooksCreate(
  options: ConnectionFlags & { url: string; events?: string; secret?: string; idempotencyKey?: string },
  out: Output,
): Promise<CreatedWebhook> {
  const { webhook, replayed } = await connect(options).webhooks.create(
    { url: options.url, events: parseEventList(options.events), secret: options.secret },
    { idempotencyKey: options.idempotencyKey },
  );
  out.result(webhook, (w) => {
    const lines = [
      out.color.green(replayed ? "Webhook already created with this idempotency key:" : "Webhook created."),
      ...webhookDetails(out.color, w),
    ];
    lines.push(out.color.dim("The secret is shown only now and on rotation: keep it to verify signatures."));
    if (w.other_webhooks.length > 0) {
      lines.push(
        out.color.yellow(
          `Events also go to ${w.other_webhooks.length} other endpoint(s): ${w.other_webhooks.map((o) => o.url).join(", ")}`,
        ),
      );
    }
    return lines;
  });
  return webhook;
}

/** `msgctl webhooks list`: the account's endpoints, newest first. */
export async function webhooksList(options: ConnectionFlags, out: Output): Promise<WebhookResource[]> {
  const client = connect(options);
  const all: WebhookResource[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await client.webhooks.list({ limit: 100, before });
    all.push(...page.data);
    if (!page.hasMore) break;
    before = page.data.at(-1)?.created_at;
  }
  out.result(all, (list) =>
    table(
      out.color,
      ["ID", "URL", "EVENTS", "ENABLED", "CREATED"],
      list.map((w) => [
        w.id,
        w.url,
        w.events.length === ALL_EVENTS_COUNT ? "all" : w.events.join(","),
        w.enabled ? out.color.green("yes") : out.color.yellow("paused"),
        w.created_at,
      ]),
    ),
  );
  return all;
}

/** `msgctl webhooks get ID`. */
export async function webhooksGet(id: string, options: ConnectionFlags, out: Output): Promise<WebhookResource> {
  const webhook = await connect(options).webhooks.get(id);
  out.result(webhook, (w) => webhookDetails(out.color, w));
  return webhook;
}

/** `msgctl webhooks update ID [--url U] [--events a,b] [--secret S] [--enable|--disable]`. */
export async function webhooksUpdate(
  id: string,
  options: ConnectionFlags & { url?: string; events?: string; secret?: string; enable?: boolean; disable?: boolean },
  out: Output,
): Promise<WebhookResource> {
  if (options.enable && options.disable) throw new UsageError("--enable and --disable cannot be used together");
  const changes = {
    url: options.url,
    events: parseEventList(options.events),
    secret: options.secret,
    enabled: options.enable ? true : options.disable ? false : undefined,
  };
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new UsageError("Nothing to change: pass --url, --events, --secret, --enable or --disable");
  }
  const webhook = await connect(options).webhooks.update(id, changes);
  out.result(webhook, (w) => [out.color.green("Webhook updated."), ...webhookDetails(out.color, w)]);
  return webhook;
}

/** `msgctl webhooks rotate ID`: a new generated secret, used from the next attempt on. */
export async function webhooksRotate(id: string, options: ConnectionFlags, out: Output): Promise<WebhookWithSecret> {
  const webhook = await connect(options).webhooks.rotateSecret(id);
  out.result(webhook, (w) => [
    out.color.green("Secret rotated: the next delivery attempt is signed with the new one."),
    ...webhookDetails(out.color, w),
  ]);
  return webhook;
}

/** `msgctl webhooks delete ID`: pending deliveries are abandoned. */
export async function webhooksDelete(
  id: string,
  options: ConnectionFlags,
  out: Output,
): Promise<{ id: string; deleted: true }> {
  const result = await connect(options).webhooks.delete(id);
  out.result(result, (r) => out.color.green(`Webhook ${r.id} deleted; its pending deliveries are abandoned.`));
  return result;
}

const STATUS_COLORS: Record<Delivery["status"], keyof ChalkInstance> = {
  pending: "yellow",
  succeeded: "green",
  failed: "red",
  abandoned: "gray",
  dropped: "magenta",
};

/** A delivery status in its colour. */
export function colorStatus(color: ChalkInstance, status: Delivery["status"]): string {
  return (color[STATUS_COLORS[status]] as (text: string) => string)(status);
}

/** An attempt's outcome in a few words: the status code, else the error. */
export function attemptOutcome(attempt: DeliveryAttempt | undefined): string {
  if (!attempt) return "";
  return attempt.status_code !== null ? String(attempt.status_code) : (attempt.error ?? "");
}

/**
 * `msgctl webhooks deliveries [--webhook ID] [--status S] [--event ID] [--limit N] [--before T] [--all]`:
 * newest first; a page at a time with a `More: --before …` hint, as `messages list`, or every page with --all.
 */
export async function webhooksDeliveries(
  options: ConnectionFlags & {
    webhook?: string;
    status?: string;
    event?: string;
    limit?: number;
    before?: string;
    all?: boolean;
  },
  out: Output,
): Promise<Delivery[]> {
  const webhooks = connect(options).webhooks;
  const filters = {
    webhookId: options.webhook,
    status: options.status as Delivery["status"] | undefined,
    eventId: options.event,
  };
  let deliveries: Delivery[] = [];
  let hasMore = false;
  if (options.all) {
    let before = options.before;
    for (;;) {
      const page = await webhooks.deliveries({ ...filters, limit: 100, before });
      deliveries.push(...page.data);
      if (!page.hasMore || page.data.length === 0) break;
      before = page.data.at(-1)?.created_at;
    }
  } else {
    const page = await webhooks.deliveries({ ...filters, limit: options.limit ?? 50, before: options.before });
    deliveries = page.data;
    hasMore = page.hasMore;
  }
  // Under --json stdout holds the page alone: the note on stderr tells a script it did not see everything.
  const more = hasMore ? `--before ${deliveries.at(-1)?.created_at} (or --all)` : undefined;
  out.result(deliveries, (list) => {
    // A CHAOS column only where seeded chaos touched a delivery listed: without chaos the table is as it was.
    const chaos = list.some((d) => d.chaos !== null);
    const lines = table(
      out.color,
      ["ID", "EVENT", "WEBHOOK", "STATUS", "ATTEMPTS", "LAST", ...(chaos ? ["CHAOS"] : []), "NEXT ATTEMPT"],
      list.map((d) => [
        d.id,
        d.event_type,
        d.webhook_id.slice(0, 8),
        colorStatus(out.color, d.status),
        d.attempts.length,
        attemptOutcome(d.attempts.at(-1)),
        ...(chaos ? [d.chaos ?? ""] : []),
        d.next_attempt_at ?? "",
      ]),
    );
    if (more) lines.push(out.color.dim(`More: ${more}`));
    return lines;
  });
  if (more && out.json) out.note(`More: ${more}`);
  return deliveries;
}

/**
 * `msgctl webhooks deliveries get ID [--body]`: one delivery with its attempts and the signature
 * each carried; with `--body`, the body its attempts POST, byte for byte and nothing else (no
 * newline added), to save for `webhooks verify --body-file`.
 */
export async function webhooksDeliveryGet(
  id: string,
  options: ConnectionFlags & { body?: boolean },
  out: Output,
): Promise<Delivery | string> {
  const webhooks = connect(options).webhooks;
  if (options.body) {
    const body = await webhooks.deliveryBody(id);
    out.write(body);
    return body;
  }
  const delivery = await webhooks.delivery(id);
  out.result(delivery, (d) => [
    ...details(out.color, [
      ["id", d.id],
      ["event", `${d.event_type} (event ${d.event_id})`],
      ["webhook", d.webhook_id],
      ["status", colorStatus(out.color, d.status)],
      ["created", d.created_at],
      ...(d.next_attempt_at ? [["next attempt", d.next_attempt_at] as [string, string]] : []),
    ]),
    ...d.attempts.map(
      (a) =>
        `  attempt ${a.n}${a.resend ? " (resend)" : ""}: ${a.at}  ${attemptOutcome(a) || "-"} in ${a.duration_ms} ms${a.signature ? `  ${out.color.dim(a.signature)}` : ""}`,
    ),
    out.color.dim(`Body, byte for byte: msgctl webhooks deliveries get ${d.id} --body > body.json`),
  ]);
  return delivery;
}

/** `msgctl webhooks resend ID`: one more attempt of that delivery's event now, signed afresh. */
export async function webhooksResend(id: string, options: ConnectionFlags, out: Output): Promise<Delivery> {
  const delivery = await connect(options).webhooks.resend(id);
  const attempt = delivery.attempts.at(-1);
  out.result(delivery, (d) => [
    `${attempt?.status_code !== null && attempt?.status_code !== undefined && attempt.status_code < 300 ? out.color.green("Resent") : out.color.yellow("Resent, not acknowledged")}: ${d.event_type} (event ${d.event_id}) to webhook ${d.webhook_id}`,
    `  attempt ${attempt?.n ?? "?"}: ${attemptOutcome(attempt)} in ${attempt?.duration_ms ?? 0} ms`,
    `  delivery ${d.id} is ${colorStatus(out.color, d.status)}`,
  ]);
  return delivery;
}
