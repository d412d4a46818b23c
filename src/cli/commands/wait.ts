import type { EventType, EventView } from "../../contract/index.js";
import { parseDuration } from "../../lib/duration.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { readEventStream } from "../event-stream.js";
import { interruptible } from "../interrupt.js";
import { details, type Output } from "../output.js";
import { waitUntilDelivered } from "./event-delivered.js";
import { startProgress } from "../progress.js";
import { UsageError } from "../usage-error.js";
import { DEFAULT_WAIT_TIMEOUT } from "../defaults.js";

/** Thrown when a wait runs out of time (or its goal can no longer be reached): exit 1, with what was seen. */
export class WaitTimeout extends Error {
  override readonly name = "WaitTimeout";
  constructor(
    message: string,
    /** The resource as last seen, when the wait polled one. */
    readonly lastSeen?: unknown,
  ) {
    super(message);
  }
}

/** Parses `--match k=v` pairs; keys may be dotted paths into the payload (`metadata.sender_handle`). */
export function parseMatches(pairs: string[] = []): [string, string][] {
  return pairs.map((pair) => {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--match takes key=value (got ${pair})`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

/** True when every match holds on the payload (values compared as strings). */
export function matches(payload: Record<string, unknown>, pairs: [string, string][]): boolean {
  return pairs.every(([path, expected]) => {
    const value = path
      .split(".")
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], payload);
    return value !== undefined && value !== null && String(value) === expected;
  });
}

// Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer one would fire at once.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Parses `--timeout` (real time); anything past 24.8 days waits that long. */
export function timeoutMs(value: string | undefined, fallback = DEFAULT_WAIT_TIMEOUT): number {
  try {
    return Math.min(parseDuration(value ?? fallback), LONGEST_TIMER_MS);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * `msgctl wait event TYPE [--match k=v]… [--delivered] [--timeout 10s]`: blocks until an event of
 * TYPE whose payload matches arrives; with --delivered, until its first attempt to every
 * subscribed endpoint has finished too. With --match, events already emitted count too, so a
 * script that sends and then waits never misses a fast event. The timeout covers both.
 */
export async function waitEvent(
  type: string,
  options: ConnectionFlags & { match?: string[]; timeout?: string; delivered?: boolean },
  out: Output,
): Promise<EventView> {
  const pairs = parseMatches(options.match);
  const limit = timeoutMs(options.timeout);
  const client = connect(options);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), limit);
  const progress = startProgress(out, `Waiting for ${type}${pairs.length ? ` (${options.match?.join(", ")})` : ""}`);
  let seen = 0;
  let arrived: { event: EventView; finished: number; total: number } | undefined;
  return interruptible(async () => {
    try {
      const response = await client.sandbox.stream({
        types: [type as EventType],
        after: pairs.length > 0 ? 0 : undefined,
        signal: abort.signal,
      });
      for await (const event of readEventStream(response)) {
        seen++;
        if (!matches(event.payload, pairs)) continue;
        if (options.delivered) {
          arrived = { event, finished: 0, total: 0 };
          const delivered = await waitUntilDelivered(client, event, abort.signal, (finished, total) => {
            arrived = { event, finished, total };
            progress.update(
              `${type} arrived; waiting for its deliveries (${finished} of ${total} first attempts finished)`,
            );
          });
          if (!delivered) throw new WaitTimeout(`The activity stream closed before ${type}'s deliveries finished`);
        }
        progress.succeed(options.delivered ? `${type} delivered` : `${type} arrived`);
        out.result(event, (e) =>
          details(out.color, [
            ["event", e.type],
            ["id", e.id],
            ["at", e.created_at],
            ["payload", e.payload],
          ]),
        );
        return event;
      }
      throw new WaitTimeout(`The event stream closed before ${type} arrived`);
    } catch (error) {
      if (abort.signal.aborted && arrived) {
        progress.fail();
        throw new WaitTimeout(
          `The ${type} event ${arrived.event.id} arrived, but not every first delivery attempt finished within ${options.timeout ?? "10s"} (${arrived.finished} of ${arrived.total} finished)`,
          arrived.event,
        );
      }
      if (abort.signal.aborted) {
        progress.fail();
        throw new WaitTimeout(
          `No ${type} event${pairs.length ? ` matching ${options.match?.join(", ")}` : ""} within ${options.timeout ?? DEFAULT_WAIT_TIMEOUT} (${seen} ${type} event(s) seen)`,
        );
      }
      progress.fail();
      throw error;
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  }, progress.stop);
}
