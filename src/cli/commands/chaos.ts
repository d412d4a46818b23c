import type { ChalkInstance } from "chalk";
import type { ChaosKind, ChaosLogEntry, ChaosProfileName, ChaosStatus } from "../../contract/index.js";
import { CHAOS_KIND_WORDS, chaosWorkOf } from "../../client/chaos.js";
import { seedOf } from "../chaos-seed.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { DEFAULT_PAGE_SIZE } from "../defaults.js";
import { table, type Output } from "../output.js";

/** Options of `msgctl chaos on`. */
export interface ChaosOnOptions {
  /** `mild` (the default) or `rough`. */
  profile?: ChaosProfileName;
}

/** Options of `msgctl chaos log`. */
export interface ChaosLogOptions {
  /** List the decisions after this id (the `More:` hint's value). */
  after?: number;
  /** How many (1-100). */
  limit?: number;
  /** Every page. */
  all?: boolean;
}

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

function showStatus(color: ChalkInstance, status: ChaosStatus): string[] {
  if (!status.enabled || !status.rates) {
    return [
      `Chaos is ${color.bold("off")}. ${color.dim("Switch it on with `msgctl chaos on SEED [--profile rough]`.")}`,
    ];
  }
  const rates = status.rates;
  return [
    `Chaos is ${color.yellow("on")}: seed ${color.bold(JSON.stringify(status.seed))}, profile ${color.bold(status.profile ?? "")}`,
    "",
    ...table(
      color,
      ["KIND", "RATE", "WHAT"],
      (Object.keys(CHAOS_KIND_WORDS) as ChaosKind[]).map((kind) => [
        kind,
        percent(rates[kind]),
        CHAOS_KIND_WORDS[kind],
      ]),
    ).map((line) => `  ${line}`),
  ];
}

/** `msgctl chaos status`: whether chaos is on, its seed, profile and rates; `--json` prints `{ enabled, seed, profile, rates }`. */
export async function chaosStatus(options: ConnectionFlags, out: Output): Promise<ChaosStatus> {
  const status = await connect(options).chaos.status();
  out.result(status, (s) => showStatus(out.color, s));
  return status;
}

/**
 * `msgctl chaos on SEED [--profile mild|rough]`: from now on the sandbox duplicates, swaps and
 * holds back deliveries, sends meet offline numbers and transient errors, receipts get lost, at
 * the profile's rates, each decision drawn from SEED and the work's identity.
 */
export async function chaosOn(
  seed: string,
  options: ConnectionFlags & ChaosOnOptions,
  out: Output,
): Promise<ChaosStatus> {
  const status = await connect(options).chaos.on({ seed: seedOf(seed), profile: options.profile });
  out.result(status, (s) => showStatus(out.color, s));
  return status;
}

/** `msgctl chaos off`: no more decisions; first attempts chaos held back go at once, in order. */
export async function chaosOff(options: ConnectionFlags, out: Output): Promise<ChaosStatus> {
  const status = await connect(options).chaos.off();
  out.result(status, () =>
    out.color.green("Chaos is off: nothing more is duplicated, reordered, delayed or lost; held attempts go now."),
  );
  return status;
}

/**
 * `msgctl chaos log [--after ID] [--limit N] [--all]`: the account's chaos decisions, oldest
 * first, a page at a time with a `More: --after …` hint, or every page with `--all`.
 */
export async function chaosLog(options: ConnectionFlags & ChaosLogOptions, out: Output): Promise<ChaosLogEntry[]> {
  const chaos = connect(options).chaos;
  let entries: ChaosLogEntry[] = [];
  let hasMore = false;
  if (options.all) {
    for (let after = options.after ?? 0; ; ) {
      const page = await chaos.log({ after, limit: 100 });
      entries.push(...page.data);
      const last = page.data.at(-1);
      if (!page.hasMore || !last) break;
      after = last.id;
    }
  } else {
    const page = await chaos.log({ after: options.after, limit: options.limit ?? DEFAULT_PAGE_SIZE });
    entries = page.data;
    hasMore = page.hasMore;
  }
  // Under --json stdout holds the page alone: the note on stderr tells a script it did not see everything.
  const more = hasMore ? `--after ${entries.at(-1)?.id} (or --all)` : undefined;
  out.result(entries, (list) => {
    const lines = table(
      out.color,
      ["ID", "AT", "KIND", "WORK", "BY"],
      list.map((e) => [e.id, e.at, e.kind, chaosWorkOf(e), e.delay_ms === null ? "" : `${e.delay_ms} ms`]),
    );
    if (more) lines.push(out.color.dim(`More: ${more}`));
    return lines;
  });
  if (more && out.json) out.note(`More: ${more}`);
  return entries;
}
