import { readFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { createClient, type MsgctlClient } from "../client/client.js";
import { ApiError, type ClientOptions } from "../client/http.js";
import { createAccount } from "../client/isolated-account.js";
import type { ScenarioStep } from "../contract/scenario-file.js";
import {
  advanceStep,
  chaosStep,
  checkStep,
  otpStep,
  sendStep,
  settleStep,
  simulateStep,
  webhookStep,
} from "./steps/actions.js";
import { StepFailed, type Outcome, type StepContext } from "./steps/context.js";
import { expectStep } from "./steps/expect.js";
import { httpStep } from "./steps/http.js";
import { latestSeq } from "./steps/observe.js";
import { waitStep } from "./steps/wait.js";
import { fillTemplates } from "./templates.js";
import type { FileResult, RunReport, Scenario, StepResult } from "./types.js";

/** How `runScenarios` reaches the sandbox and what it does between files. */
export interface RunOptions {
  /** The sandbox's URLs and a key it knows (to make each file's account, or to restore). */
  connection: ClientOptions & { baseUrl: string };
  /** Stop at the first unmet expectation: no later step or file runs. */
  bail?: boolean;
  /** Fetch for `http` steps (the user's own app). */
  fetch?: typeof fetch;
  /** What `{{env.NAME}}` reads: the environment `run` was started in (your app's URL, say). */
  env?: Record<string, string | undefined>;
  /** Told as each file finishes, so a caller can print as the run goes. */
  onFile?: (result: FileResult) => void;
}

type Runner = (body: never, context: StepContext) => Promise<Outcome>;
const RUNNERS: Record<ScenarioStep["kind"], Runner> = {
  send: sendStep,
  simulate: simulateStep,
  otp: otpStep,
  webhook: webhookStep,
  advance: advanceStep,
  settle: settleStep,
  wait: waitStep,
  http: httpStep,
  expect: expectStep,
  chaos: chaosStep,
  check: checkStep,
};

/** A failure of a step in one line. */
function failureText(error: unknown): string {
  if (error instanceof ApiError) return `${error.status} ${error.code}: ${error.message}`;
  return (error as Error)?.message ?? String(error);
}

/**
 * The snapshot a file restores: a name the sandbox keeps, or an exported snapshot file (a path
 * starting with ./, ../ or /, from the scenario file's folder), imported first under its name.
 */
async function snapshotName(admin: MsgctlClient, scenario: Scenario): Promise<string> {
  const restore = scenario.restore as string;
  if (!/^(\.{1,2})?\//.test(restore)) return restore;
  const path = resolve(dirname(scenario.file), restore);
  const name = basename(path)
    .replace(/[^A-Za-z0-9._-]/g, "-")
    .slice(0, 64);
  await admin.snapshots.import(name, await readFile(path));
  return name;
}

/** The file's account: on demand (deleted after a pass), or the connection's after a restore. */
async function prepare(scenario: Scenario, options: RunOptions) {
  const { connection } = options;
  if (scenario.restore) {
    const admin = createClient(connection);
    await admin.snapshots.restore(await snapshotName(admin, scenario));
    return { client: admin, name: undefined, apiKey: connection.apiKey ?? "", remove: undefined };
  }
  const slug = scenario.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);
  const isolated = await createAccount(connection, { name: `run-${slug}-${crypto.randomUUID().slice(0, 6)}` });
  return {
    client: isolated.client,
    name: isolated.account.name,
    apiKey: isolated.account.api_key,
    otpApiKey: isolated.account.otp_api_key,
    remove: isolated.delete,
  };
}

/** The names every file starts with: numbers, account, base_url, otp_url, env. */
async function builtIns(client: MsgctlClient, options: RunOptions, account: Record<string, unknown>) {
  const numbers = (await client.numbers.list()).map((number) => number.handle);
  return new Map<string, unknown>([
    ["numbers", numbers],
    ["account", account],
    ["base_url", options.connection.baseUrl],
    ["otp_url", options.connection.otpUrl ?? ""],
    ["env", { ...options.env }],
  ]);
}

/** Runs one file's steps; `bailed` when --bail stopped it at an unmet expectation. */
async function runFile(scenario: Scenario, options: RunOptions): Promise<FileResult & { bailed: boolean }> {
  const started = Date.now();
  const result = (steps: StepResult[], extra: Partial<FileResult> = {}, bailed = false) => ({
    file: scenario.file,
    name: scenario.name,
    passed: extra.error === undefined && steps.every((step) => step.passed) && steps.length === scenario.steps.length,
    steps,
    total: scenario.steps.length,
    durationMs: Date.now() - started,
    ...extra,
    bailed,
  });
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(scenario, options);
  } catch (error) {
    const what = scenario.restore ? `restoring snapshot ${scenario.restore}` : "making its account";
    return result([], { error: `${what} failed: ${failureText(error)}` });
  }
  const { client } = prepared;
  const context: StepContext = {
    client,
    values: await builtIns(client, options, {
      name: prepared.name ?? null,
      api_key: prepared.apiKey,
      otp_api_key: prepared.otpApiKey ?? options.connection.otpApiKey ?? "",
    }),
    since: await latestSeq(client),
    fetch: options.fetch ?? fetch,
  };
  const steps: StepResult[] = [];
  let bailed = false;
  for (const [index, step] of scenario.steps.entries()) {
    try {
      const body = fillTemplates(step.body, context.values);
      const outcome = await RUNNERS[step.kind](body as never, context);
      if (step.save !== undefined && outcome.result !== undefined) context.values.set(step.save, outcome.result);
      steps.push(
        outcome.passed
          ? { index, kind: step.kind, passed: true, message: outcome.message }
          : {
              index,
              kind: step.kind,
              passed: false,
              message: outcome.message,
              expectation: true,
              details: outcome.details,
            },
      );
      if (!outcome.passed && options.bail) {
        bailed = true;
        break;
      }
    } catch (error) {
      const details = error instanceof StepFailed ? error.details : [];
      steps.push({ index, kind: step.kind, passed: false, message: failureText(error), details });
      bailed = options.bail === true;
      break;
    }
  }
  const done = result(steps, {}, bailed);
  if (prepared.name !== undefined) {
    if (done.passed) await prepared.remove?.();
    done.account = { name: prepared.name, api_key: prepared.apiKey, kept: !done.passed };
  }
  return done;
}

/**
 * Runs scenario files one after another against a running sandbox, each in an account of its
 * own made for it (deleted when the file passes, kept for a look when it fails), or, for a file
 * that names a snapshot, as the connection's account after restoring it. A file goes on after
 * an unmet expectation and stops at a step that could not be done; with `bail`, the run stops at
 * the first failure of either kind.
 */
export async function runScenarios(scenarios: Scenario[], options: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  // Fails the whole run at once when the sandbox is not there or does not know the key.
  await createClient(options.connection).sandbox.clock();
  const files: FileResult[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    const { bailed, ...file } = await runFile(scenario, options);
    files.push(file);
    options.onFile?.(file);
    if (bailed || (options.bail && !file.passed)) {
      const notRun = scenarios.slice(i + 1).map(({ file, name }) => ({ file, name }));
      return { files, notRun, startedAt, durationMs: Date.now() - started };
    }
  }
  return { files, notRun: [], startedAt, durationMs: Date.now() - started };
}
