import { useEffect, useState } from "preact/hooks";
import type { Delivery, WebhookResource } from "../../contract/types.js";
import { chaosHeaderOf } from "../../client/chaos.js";
import type { MsgctlClient } from "../../client/client.js";
import { dateTimeOf } from "../format.js";
import { hrefOf } from "../route.js";
import { useAction } from "./form-parts.js";
import { HandlerCheck } from "./handler-check.js";
import { refresh, sandboxNow, useInspector, useLive } from "../state.js";
import { Ladder, type RetryLadderRead, useRetryLadder } from "./retry-ladder.js";

/** styles.css's one-column layout. */
const NARROW = "(max-width: 760px)";

/** Webhooks: the endpoints, their deliveries, and one delivery's attempts on the retry ladder. */
export function WebhooksView({ deliveryId }: { deliveryId: string | null }) {
  const { client } = useInspector();
  const ladder = useRetryLadder(client);
  const [webhookId, setWebhookId] = useState<string>("");
  const webhooks = useLive(client ? () => client.webhooks.list({ limit: 100 }) : null, [client]);
  const deliveries = useLive(
    client ? () => client.webhooks.deliveries({ limit: 50, webhookId: webhookId || undefined }) : null,
    [client, webhookId],
  );
  if (!client) return null;
  return (
    <div class={`webhooks-view ${deliveryId ? "has-delivery" : ""}`}>
      <section class="endpoints" aria-label="Webhook endpoints">
        <h2>Endpoints</h2>
        {webhooks.data?.data.length === 0 && (
          <p class="empty">No endpoints: create one with POST /v1/webhooks or msgctl webhooks create.</p>
        )}
        <ul>
          {(webhooks.data?.data ?? []).map((hook) => (
            <Endpoint
              key={hook.id}
              hook={hook}
              selected={hook.id === webhookId}
              onSelect={() => setWebhookId(hook.id === webhookId ? "" : hook.id)}
            />
          ))}
        </ul>
        <HandlerCheck client={client} url={webhooks.data?.data.find((hook) => hook.id === webhookId)?.url ?? ""} />
      </section>
      <section class="deliveries" aria-label="Deliveries">
        <h2>Deliveries{webhookId && " of the selected endpoint"}</h2>
        {deliveries.data?.data.length === 0 && <p class="empty">No deliveries yet.</p>}
        <ol>
          {(deliveries.data?.data ?? []).map((delivery) => (
            <li key={delivery.id}>
              <a
                href={hrefOf("webhooks", delivery.id)}
                aria-current={delivery.id === deliveryId ? "page" : undefined}
                data-delivery-id={delivery.id}
              >
                <span class={`badge ${delivery.status}`}>{delivery.status}</span>{" "}
                <span class="type">{delivery.event_type}</span>{" "}
                <span class="attempts">
                  {delivery.attempts.length}/{ladder.data?.attempts ?? "…"}
                </span>
                {delivery.chaos && (
                  <span class="badge chaos" title="Seeded chaos touched this delivery">
                    {delivery.chaos}
                  </span>
                )}
              </a>
            </li>
          ))}
        </ol>
      </section>
      {deliveryId && (
        <div class="delivery-pane">
          <a class="back" href={hrefOf("webhooks")}>
            ← Deliveries
          </a>
          <DeliveryDetail client={client} id={deliveryId} ladder={ladder} />
        </div>
      )}
    </div>
  );
}

function Endpoint({ hook, selected, onSelect }: { hook: WebhookResource; selected: boolean; onSelect(): void }) {
  return (
    <li>
      <button type="button" class="endpoint" aria-pressed={selected} onClick={onSelect}>
        <span class="url">{hook.url}</span>
        <span class="meta">
          {hook.enabled ? "enabled" : "paused"} · {hook.events.length} events
        </span>
      </button>
    </li>
  );
}

/** One delivery: its attempts on the ladder, what was sent (headers and raw body). */
function DeliveryDetail({ client, id, ladder }: { client: MsgctlClient; id: string; ladder: RetryLadderRead }) {
  const inspector = useInspector();
  const [picked, setPicked] = useState<number | null>(null);
  const delivery = useLive(() => client.webhooks.delivery(id), [id]);
  // On a narrow screen the lists give way to the delivery (styles.css): start at its top, not
  // where the list was scrolled to.
  useEffect(() => {
    if (matchMedia(NARROW).matches) scrollTo({ top: 0 });
  }, [id]);
  const d = delivery.data;
  const event = useLive(d ? () => client.sandbox.event(d.event_id) : null, [d?.event_id]);
  if (delivery.error) return <p class="error">{delivery.error}</p>;
  if (!d) return null;
  const now = sandboxNow(inspector);
  const body = event.data ? JSON.stringify(event.data.payload) : null;
  const shown = d.attempts.find((attempt) => attempt.n === picked) ?? d.attempts.at(-1);
  const resends = d.attempts.filter((attempt) => attempt.resend);
  return (
    <section class="delivery" aria-label="Delivery">
      <h2>
        {d.event_type} <span class={`badge ${d.status}`}>{d.status}</span>
      </h2>
      <ResendButton client={client} id={d.id} onDone={delivery.reload} />
      {d.chaos && <p class="chaos-note">{CHAOS_NOTES[d.chaos]}</p>}
      {ladder.error && <p class="error">{ladder.error}</p>}
      {ladder.data && (
        <Ladder ladder={ladder.data} delivery={d} now={now} picked={shown?.n ?? null} onPick={setPicked} />
      )}
      {resends.length > 0 && (
        <>
          <h3>Resent by hand</h3>
          <ol class="resends" aria-label="Resends">
            {resends.map((attempt) => (
              <li
                key={attempt.n}
                class={`rung ${attempt.status_code !== null && attempt.status_code < 300 && attempt.status_code >= 200 ? "ok" : "failed"}`}
              >
                <button
                  type="button"
                  class="link"
                  aria-pressed={picked === attempt.n}
                  aria-label={`Show the headers of resend ${attempt.n}`}
                  onClick={() => setPicked(attempt.n)}
                >
                  headers
                </button>
                <span class="at">{dateTimeOf(attempt.at)}</span>
                <span class="code">{attempt.status_code ?? "no answer"}</span>
                <span class="duration">{attempt.duration_ms} ms</span>
                {attempt.error && <span class="why">{attempt.error}</span>}
              </li>
            ))}
          </ol>
        </>
      )}
      <h3>Request headers{shown ? ` of attempt ${shown.n}` : " (no attempt yet)"}</h3>
      <dl class="headers">
        <dt>content-type</dt>
        <dd>application/json</dd>
        <dt>user-agent</dt>
        <dd>msgctl-webhooks/1.0</dd>
        <dt>X-service-Signature</dt>
        <dd>
          <code data-testid="signature">
            {shown?.signature ?? "t=<unix seconds>,v1=<hex HMAC-SHA256 of “t.body” with the endpoint's secret>"}
          </code>
        </dd>
        <dt>X-Msgctl-Event-Id</dt>
        <dd>
          <code>{d.event_id}</code>
        </dd>
        <dt>X-Msgctl-Attempt</dt>
        <dd data-testid="attempt-header">{shown ? ladderRung(d, shown) : 1}</dd>
        {shown && chaosHeaderOf(d, shown) && (
          <>
            <dt>X-Msgctl-Chaos</dt>
            <dd data-testid="chaos-header">{chaosHeaderOf(d, shown)}</dd>
          </>
        )}
        {shown?.resend && (
          <>
            <dt>X-Msgctl-Resend</dt>
            <dd>1</dd>
          </>
        )}
      </dl>
      <h3>Raw body</h3>
      <pre class="payload" data-testid="raw-body">
        {body ?? "…"}
      </pre>
    </section>
  );
}

/** What seeded chaos did to a delivery, said over it. */
const CHAOS_NOTES: Record<NonNullable<Delivery["chaos"]>, string> = {
  duplicate: "Seeded chaos: a copy of its event, sent again 1-60 s after it (same X-Msgctl-Event-Id).",
  reordered: "Seeded chaos: its first attempt swapped places with the next one to this endpoint.",
  delayed:
    "Seeded chaos: its first attempt was held back (an extra 1-30 s, or up to 30 s waiting in vain for one to swap with); later ones to this endpoint waited behind it.",
};

/**
 * The `X-Msgctl-Attempt` an attempt carried: its rung of the retry ladder, 1-8; a resend carries
 * the rung it repeats, 1 when none went before (domain/webhooks/resend.ts).
 */
function ladderRung(delivery: Delivery, attempt: Delivery["attempts"][number]): number {
  const ladderBefore = delivery.attempts.filter((other) => !other.resend && other.n < attempt.n).length;
  return attempt.resend ? Math.max(1, ladderBefore) : ladderBefore + 1;
}

/** One more attempt now (POST /sandbox/v1/deliveries/:id/resend), outside the ladder. */
function ResendButton({ client, id, onDone }: { client: MsgctlClient; id: string; onDone(): void }) {
  const { busy, error, run } = useAction();
  const resend = () =>
    run(async () => {
      await client.webhooks.resend(id);
      onDone();
      refresh();
    });
  return (
    <p class="row">
      <button type="button" disabled={busy} onClick={() => void resend()}>
        {busy ? "Resending…" : "Resend now"}
      </button>
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </p>
  );
}
