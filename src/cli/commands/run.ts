import { writeFile } from "node:fs/promises";
import type { ClientOptions } from "../../client/http.js";
import { scenarioJsonSchema } from "../../contract/scenario-file.js";
import {
  jsonReport,
  junitReport,
  loadScenario,
  problemText,
  runScenarios,
  stepLabel,
  UnreadableScenario,
  type FileResult,
  type RunReport,
  type Scenario,
  type ScenarioProblem,
} from "../../scenarios/index.js";
import { resolveConnection, type ConnectionFlags } from "../connection.js";
import { DEFAULT_HOST, DEFAULT_PORTS } from "../defaults.js";
import type { Output } from "../output.js";
import { openOutputPathAsync } from "../output-file.js";
import { QuietExit } from "../quiet-exit.js";
import { UsageError } from "../usage-error.js";

/** Options of `msgctl run`. */
export interface RunCommandOptions {
  /** Write a JUnit XML report here. */
  junit?: string;
  /** Stop at the first failure. */
  bail?: boolean;
  /** Start a sandbox on a manual clock for the run, and stop it after. */
  serve?: boolean;
  /** With --serve: its ports (0 picks free ones). */
  port?: number;
  otpPort?: number;
  /** Print the scenario file format's JSON Schema and run nothing. */
  schema?: boolean;
  json?: boolean;
}

/** Files that failed their checks: exit 1 before anything ran, each problem named. */
export class InvalidScenario extends Error {
  override readonly name = "InvalidScenario";
  constructor(
    readonly problems: ScenarioProblem[],
    /** Under --json, printed within the error object (cli/report-error.ts). */
    readonly details = {
      problems: problems.map(({ file, path, message, line, column }) => ({ file, path, message, line, column })),
    },
  ) {
    super(`${problems.length} problem(s) in scenario files, nothing was run:\n${problems.map(problemText).join("\n")}`);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One file's lines for people: PASS/FAIL, then each failed step with what was expected and seen. */
function fileLines(out: Output, file: FileResult): string[] {
  const c = out.color;
  const head = `${file.passed ? c.green("PASS") : c.red("FAIL")}  ${c.bold(file.name)}  ${c.dim(`${file.file}  (${seconds(file.durationMs)})`)}`;
  const lines = [head];
  if (file.error) lines.push(`      ${c.red(file.error)}`);
  for (const step of file.steps.filter((s) => !s.passed)) {
    lines.push(`      ${c.red(stepLabel(step))}: ${step.message}`);
    for (const line of step.details ?? []) lines.push(`        ${line}`);
  }
  const stoppedAt = file.steps.at(-1);
  if (stoppedAt && !stoppedAt.passed && stoppedAt.index < file.total - 1)
    lines.push(c.dim(`      the steps after ${stepLabel(stoppedAt)} did not run`));
  if (file.account?.kept)
    lines.push(c.dim(`      its account ${file.account.name} is kept for a look (api key ${file.account.api_key})`));
  return lines;
}

/** Reads and checks every file first: one bad file runs nothing. */
async function loadAll(files: string[]): Promise<{ scenarios: Scenario[]; problems: ScenarioProblem[] }> {
  const scenarios: Scenario[] = [];
  const problems: ScenarioProblem[] = [];
  for (const file of files) {
    try {
      const loaded = await loadScenario(file);
      if (loaded.scenario) scenarios.push(loaded.scenario);
      problems.push(...loaded.problems);
    } catch (error) {
      if (error instanceof UnreadableScenario) throw new UsageError(error.message);
      throw error;
    }
  }
  return { scenarios, problems };
}

async function writeJunit(path: string | undefined, report: RunReport | undefined, problems: ScenarioProblem[] = []) {
  if (path === undefined) return;
  await openOutputPathAsync(path, "--junit", () => writeFile(path, junitReport(report, problems)));
}

/** The sandbox to run against: the running one, or one started for the run (--serve). */
async function sandboxFor(options: ConnectionFlags & RunCommandOptions, out: Output) {
  if (!options.serve) {
    const connection = resolveConnection(options);
    if (!connection.apiKey)
      throw new UsageError(
        "run needs a key the sandbox knows (to make each file's account): pass --api-key or set MSGCTL_API_KEY",
      );
    return { connection: connection as ClientOptions & { baseUrl: string }, stop: async () => {} };
  }
  const { startSandbox } = await import("../../runtime/start-sandbox.js");
  const sandbox = await startSandbox({
    clock: "manual",
    host: DEFAULT_HOST,
    port: options.port ?? DEFAULT_PORTS.messaging,
    otpPort: options.otpPort ?? DEFAULT_PORTS.otp,
  });
  out.note(out.color.dim(`sandbox on ${sandbox.baseUrl} and ${sandbox.otpUrl}, manual clock, for this run`));
  return {
    connection: {
      baseUrl: sandbox.baseUrl,
      otpUrl: sandbox.otpUrl,
      apiKey: sandbox.apiKey,
      otpApiKey: sandbox.otpApiKey,
    },
    stop: () => sandbox.stop(),
  };
}

/**
 * `msgctl run FILE… [--junit PATH] [--json] [--bail] [--serve]`: runs scenario files one after
 * another against the running sandbox (or one it starts on a manual clock with --serve). Every
 * file is checked before any runs. Exit 0 when every expectation held, 1 otherwise; `--schema`
 * prints the file format's JSON Schema.
 */
export async function run(files: string[], options: ConnectionFlags & RunCommandOptions, out: Output): Promise<void> {
  if (options.schema) {
    out.line(JSON.stringify(scenarioJsonSchema(), null, 2));
    return;
  }
  if (files.length === 0) throw new UsageError("name one or more scenario files (or --schema for their format)");
  if (!options.serve && (options.port !== undefined || options.otpPort !== undefined))
    throw new UsageError("--port and --otp-port go with --serve");
  const { scenarios, problems } = await loadAll(files);
  if (problems.length > 0) {
    await writeJunit(options.junit, undefined, problems);
    throw new InvalidScenario(problems);
  }
  const sandbox = await sandboxFor(options, out);
  let report: RunReport;
  try {
    report = await runScenarios(scenarios, {
      connection: sandbox.connection,
      bail: options.bail,
      env: process.env,
      onFile: (file) => {
        if (!out.json) for (const line of fileLines(out, file)) out.line(line);
      },
    });
  } finally {
    await sandbox.stop();
  }
  await writeJunit(options.junit, report);
  const summary = jsonReport(report);
  out.result(summary, (s) => [
    ...report.notRun.map((file) => `${out.color.yellow("SKIP")}  ${file.name}  ${out.color.dim(file.file)}`),
    "",
    `${s.passed} passed, ${s.failed} failed${s.skipped ? `, ${s.skipped} not run` : ""} (${seconds(report.durationMs)})`,
  ]);
  if (summary.failed > 0 || summary.skipped > 0) throw new QuietExit(1);
}
