import { defineConfig } from "vitest/config";
import { ONE_TRANSPORT_SUITES } from "./test/helpers/transports.js";

/** Suites that read module state as a fresh process leaves it (what is loaded yet): never share a worker. */
const FRESH_PROCESS_SUITES = ["test/api/webhook-agent-preload.test.ts"];

/**
 * Suites that hold the real clock to tight figures (timestamps within 50 ms of the wall under a
 * steady load, an answer within 100 ms while 3,000 sends run, a page's first draw, the fuzzer's
 * memory): they run last, one file at a time, with the machine to themselves.
 */
const ALONE_SUITES = [
  "test/integration/timestamps-real-clock.test.ts",
  "test/e2e/process.test.ts",
  "test/browser/figures.test.ts",
  "test/fuzz/**/*.test.ts",
];

/**
 * The projects of `npm test`. Every API suite runs twice, as h3's own suite does: in-process
 * through `app.request`, and over a real socket (test/helpers/sandbox.ts reads
 * MSGCTL_TEST_TRANSPORT), except the few that choose their transports themselves
 * (test/helpers/transports.ts). `npm run test:quick` runs the unit and in-process API projects.
 *
 * Test files share a worker and its loaded modules (`isolate: false`): each file starts its own
 * sandbox and database, and re-importing the whole server for every file was a quarter of the
 * run's time. Suites that need a fresh process say so above.
 *
 * Two files run at a time (vitest's default on two cores is one): most of a file's time is spent
 * waiting on the processes, sockets and browsers it starts, so a second worker all but halves the
 * run on this 2-core machine. Projects of one `groupOrder` share that count; the suites above
 * that time the real clock form the last group, alone.
 */
export default defineConfig({
  test: {
    globalSetup: ["test/helpers/global-build.ts", "test/helpers/global-temp.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    isolate: false,
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "api in-process",
          include: ["test/api/**/*.test.ts"],
          exclude: FRESH_PROCESS_SUITES,
          env: { MSGCTL_TEST_TRANSPORT: "in-process" },
        },
      },
      {
        extends: true,
        test: {
          name: "api socket",
          include: ["test/api/**/*.test.ts"],
          exclude: [...ONE_TRANSPORT_SUITES, ...FRESH_PROCESS_SUITES],
          env: { MSGCTL_TEST_TRANSPORT: "socket" },
        },
      },
      {
        extends: true,
        test: {
          name: "fresh process",
          include: FRESH_PROCESS_SUITES,
          isolate: true,
          env: { MSGCTL_TEST_TRANSPORT: "in-process" },
        },
      },
      {
        extends: true,
        test: {
          name: "integration, cli, e2e",
          include: [
            "test/integration/**/*.test.ts",
            "test/cli/**/*.test.ts",
            "test/e2e/**/*.test.ts",
            "test/fuzz/**/*.test.ts",
          ],
          exclude: ALONE_SUITES,
        },
      },
      // The inspector in a real browser (Debian's Chromium through playwright-core); skipped without one.
      {
        extends: true,
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          exclude: ALONE_SUITES,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "alone",
          include: ALONE_SUITES,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
