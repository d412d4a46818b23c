import type { WebhookCheckReport } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { interruptible } from "../interrupt.js";
import { table, type Output } from "../output.js";
import { startProgress } from "../progress.js";

/** Thrown when a probe failed: exit 1 after the report (under --json the report rides in the error object). */
export class CheckFailed extends Error {
  override readonly name = "CheckFailed";
  constructor(
    message: string,
    /** Under --json: `url`, `passed` and `probes`, printed within the error object (cli/report-error.ts). */
    readonly details?: WebhookCheckReport,
  ) {
    super(message);
  }
}

/** Options of `msgctl webhooks check`. */
export interface CheckCommandOptions {
  url: string;
  secret: string;
}

/** The report for people: the table, then what each failure means and what to change, then notes. */
function humanReport(report: WebhookCheckReport, out: Output): string[] {
  const { color: c } = out;
  const failed = report.probes.filter((probe) => probe.verdict === "fail");
  const rows = report.probes.map((probe) => [
    probe.probe,
    probe.status ?? "none",
    `${probe.ms} ms`,
    probe.verdict === "pass" ? c.green("pass") : c.red("fail"),
  ]);
  const lines = [`Handler: ${report.url}`, "", ...table(c, ["PROBE", "STATUS", "TIME", "VERDICT"], rows), ""];
  if (failed.length === 0) {
    lines.push(c.green(`✔ Passed: all ${report.probes.length} probes answered as a correct handler answers.`));
  } else {
    lines.push(c.red(`✘ ${failed.length} of ${report.probes.length} probes failed:`));
    for (const probe of failed) lines.push(`  ${c.bold(probe.probe)}: ${probe.why}`);
  }
  // A pass's advice follows its answer after "; " (the repeat's reminder to dedupe, a 5xx refusal's word on 4xx).
  const notes = report.probes.filter((probe) => probe.verdict === "pass" && probe.why.includes("; "));
  if (notes.length > 0) {
    lines.push("", c.dim("Notes:"));
    for (const probe of notes) lines.push(c.dim(`  ${probe.probe}: ${probe.why.slice(probe.why.indexOf(";") + 2)}`));
  }
  return lines;
}

/**
 * `msgctl webhooks check --url U --secret S`: the sandbox sends a fixed battery of requests to the
 * user's own handler (a valid event, its repeat, forged and stale signatures, events out of
 * order, an unknown field) and grades each answer (docs/check.md). Exit 0 when every probe
 * passed, 1 when any failed; an unreachable handler is the API's `unreachable` (exit 1). `--json`
 * prints `{ url, passed, probes }`, with `error` and `message` beside them when it failed.
 */
export async function webhooksCheck(
  options: ConnectionFlags & CheckCommandOptions,
  out: Output,
): Promise<WebhookCheckReport> {
  const client = connect(options);
  const progress = startProgress(out, `Checking ${options.url}: sending the probes one at a time`);
  const report = await interruptible(async () => {
    try {
      const checked = await client.webhooks.check({ url: options.url, secret: options.secret });
      progress.stop();
      return checked;
    } catch (error) {
      progress.fail();
      throw error;
    }
  }, progress.stop);
  const failed = report.probes.filter((probe) => probe.verdict === "fail").length;
  const message = `The handler at ${report.url} failed ${failed} of ${report.probes.length} probes`;
  if (out.json && !report.passed) throw new CheckFailed(message, report);
  out.result(report, (data) => humanReport(data, out));
  if (!report.passed) throw new CheckFailed(`${message} (see above)`);
  return report;
}
