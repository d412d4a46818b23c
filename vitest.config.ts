import { defineConfig } from "vitest/config";
import { ONE_TRANSPORT_SUITES } from "./test/helpers/transports.js";

/** Suites that read module state as a fresh process leaves it (what is loaded yet): never share a worker. */
const FRESH_PROCESS_SUITES = ["test/api/webhook-agent-preload.test.ts"];

/**
 * The projects of `npm test`. Every API suite runs twice, as h3's own suite does: in-process
 * through `app.request`, and over a real socket (test/helpers/sandbox.ts reads
 * MSGCTL_TEST_TRANSPORT), except the few that choose their transports themselves
 * (test/helpers/transports.ts). `npm run test:quick` runs the unit and in-process API projects.
 *
 * Test files share a worker and its loaded modules (`isolate: false`): each file starts its own
 * sandbox and database, and re-importing the whole server for every file was a quarter of the
 * run's time. Suites that need a fresh process say so above.
 */
export default defineConfig({
  test: {
    globalSetup: ["test/helpers/global-build.ts", "test/helpers/global-temp.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    isolate: false,
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
        },
      },
      // The inspector in a real browser (Debian's Chromium through playwright-core); skipped without one.
      {
        extends: true,
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
