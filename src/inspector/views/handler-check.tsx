import { useState } from "preact/hooks";
import type { MsgctlClient } from "../../client/client.js";
import type { WebhookCheckReport } from "../../contract/types.js";
import { ErrorAlert, TextField, useAction } from "./form-parts.js";

/**
 * "Check a handler": the battery of `msgctl webhooks check` sent to the user's own handler
 * (POST /sandbox/v1/webhooks/check, docs/check.md), each probe's answer and verdict, and for a
 * failure what to change. `url` starts as the selected endpoint's, when one is.
 */
export function HandlerCheck({ client, url: suggested }: { client: MsgctlClient; url: string }) {
  // null until typed in: the selected endpoint's URL is offered meanwhile.
  const [url, setUrl] = useState<string | null>(null);
  const [secret, setSecret] = useState("");
  const { busy, error, run } = useAction();
  const [report, setReport] = useState<WebhookCheckReport | null>(null);
  const target = url ?? suggested;
  const check = async () => {
    setReport(null);
    await run(async () => setReport(await client.webhooks.check({ url: target, secret })));
  };
  const failed = report?.probes.filter((probe) => probe.verdict === "fail").length ?? 0;
  return (
    <section class="handler-check" aria-label="Check a handler">
      <h2>Check a handler</h2>
      <p class="note">
        Sends your handler a valid event, its repeat, forged and stale signatures, events out of order and an unknown
        field, and grades each answer. Nothing is recorded.
      </p>
      <form
        class="stacked"
        onSubmit={(e) => {
          e.preventDefault();
          void check();
        }}
      >
        <TextField
          label="URL"
          url
          value={target}
          onValue={setUrl}
          placeholder="http://localhost:3000/webhooks"
          required
        />
        <TextField
          label="Secret"
          value={secret}
          onValue={setSecret}
          placeholder="whsec_…"
          minLength={16}
          maxLength={200}
          required
        />
        <button type="submit" disabled={busy}>
          {busy ? "Checking…" : "Check"}
        </button>
      </form>
      <ErrorAlert error={error} />
      {report && (
        <>
          <p data-testid="check-verdict" class={report.passed ? "check-passed" : "check-failed"}>
            {report.passed
              ? `Passed: all ${report.probes.length} probes`
              : `${failed} of ${report.probes.length} probes failed`}
          </p>
          <ol class="check-probes">
            {report.probes.map((probe) => (
              <li key={probe.probe} data-probe={probe.probe}>
                <span class={`badge ${probe.verdict === "pass" ? "succeeded" : "failed"}`}>{probe.verdict}</span>{" "}
                <span class="type">{probe.probe}</span> <span class="code">{probe.status ?? "no answer"}</span>{" "}
                <span class="duration">{probe.ms} ms</span>
                {(probe.verdict === "fail" || probe.why.includes("; ")) && <p class="why">{probe.why}</p>}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
