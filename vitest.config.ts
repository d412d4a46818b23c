import { defineConfig } from "vitest/config";

/**
 * Every API suite runs twice, as h3's own suite does: in-process through `app.request`, and
 * over a real socket (test/helpers/sandbox.ts reads MSGCTL_TEST_TRANSPORT).
 */
export default defineConfig({
  test: {
    globalSetup: ["test/helpers/global-build.ts", "test/helpers/global-temp.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "api in-process",
          include: ["test/api/**/*.test.ts"],
          env: { MSGCTL_TEST_TRANSPORT: "in-process" },
        },
      },
      {
        extends: true,
        test: { name: "api socket", include: ["test/api/**/*.test.ts"], env: { MSGCTL_TEST_TRANSPORT: "socket" } },
      },
      {
        extends: true,
        test: {
          name: "unit, integration, cli, e2e",
          include: ["test/**/*.test.ts"],
          exclude: ["test/api/**", "test/browser/**"],
        },
      },
      // The inspector in a real browser (Debian's Chromium through playwright-core); skipped without one.
      {
        extends: true,
        test: { name: "browser", include: ["test/browser/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
});
