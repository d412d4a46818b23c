import { useEffect, useState } from "preact/hooks";
import type { MsgctlClient } from "../../client/client.js";
import type { Delivery, RetryLadder } from "../../contract/types.js";
import { dateTimeOf, durationOf, untilOf } from "../format.js";

/** The retry ladder as read from the sandbox, or why it could not be. */
export interface RetryLadderRead {
  data: RetryLadder | undefined;
  error: string | null;
}

/**
 * The retry ladder, read once per client (GET /sandbox/v1/webhooks/retry-ladder): the sandbox's
 * own waits, so the page keeps no copy of them. It never changes while the sandbox runs.
 */
export function useRetryLadder(client: MsgctlClient | null): RetryLadderRead {
  const [read, setRead] = useState<RetryLadderRead>({ data: undefined, error: null });
  useEffect(() => {
    if (!client) return;
    let current = true;
    client.webhooks.retryLadder().then(
      (data) => current && setRead({ data, error: null }),
      (failure: Error) => current && setRead({ data: undefined, error: `The retry ladder: ${failure.message}` }),
    );
    return () => {
      current = false;
    };
  }, [client]);
  return read;
}

/** The rungs: made attempts with their outcome, the next one's time, the rest to come. Resends stand outside it. */
export function Ladder({
  ladder,
  delivery,
  now,
  picked,
  onPick,
}: {
  ladder: RetryLadder;
  delivery: Delivery;
  now: number;
  picked: number | null;
  onPick(n: number): void;
}) {
  const rungs = Array.from({ length: ladder.attempts }, (_, i) => i + 1);
  const onLadder = delivery.attempts.filter((attempt) => !attempt.resend);
  return (
    <ol class="ladder" aria-label="Attempts on the retry ladder">
      {rungs.map((n) => {
        const attempt = onLadder[n - 1];
        const wait = n === 1 ? "first" : `+${durationOf(ladder.waits_ms[n - 2] ?? 0)}`;
        if (attempt) {
          const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
          return (
            <li key={n} class={`rung ${ok ? "ok" : "failed"}`} data-attempt={n}>
              <button
                type="button"
                class="n link"
                aria-pressed={picked === attempt.n}
                aria-label={`Show the headers of attempt ${n}`}
                onClick={() => onPick(attempt.n)}
              >
                {n}
              </button>
              <span class="wait">{wait}</span>
              <span class="at">{dateTimeOf(attempt.at)}</span>
              <span class="code">{attempt.status_code ?? "no answer"}</span>
              <span class="duration">{attempt.duration_ms} ms</span>
              {attempt.error && <span class="why">{attempt.error}</span>}
            </li>
          );
        }
        const next = n === onLadder.length + 1 && delivery.next_attempt_at;
        return (
          <li key={n} class={`rung ${next ? "next" : "later"}`} data-attempt={n}>
            <span class="n">{n}</span>
            <span class="wait">{wait}</span>
            {next ? (
              <span class="at">
                next at {dateTimeOf(next)} ({untilOf(Date.parse(next), now)})
              </span>
            ) : (
              <span class="at">{delivery.status === "pending" ? "to come if needed" : "not needed"}</span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
