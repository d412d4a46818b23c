import { createContext, createBus } from "../domain/core/index.js";
import type { SandboxControl } from "../domain/control/index.js";
import { cryptoIds } from "../lib/ids.js";
import { createMessagingApp, createOtpApp } from "../server/hosts.js";
import type { HostName } from "../server/openapi.js";
import { openDatabase } from "../store/engine/index.js";
import { sqliteAddon } from "./single-binary.js";
import { packageVersion } from "./version.js";

/**
 * A host's OpenAPI document without a running sandbox (`msgctl openapi`): the host is built over
 * an in-memory database and asked for its /openapi.json, so the document is exactly the one a
 * running sandbox serves.
 */
export async function openApiDocumentOf(host: HostName): Promise<Record<string, unknown>> {
  const db = await openDatabase(":memory:", { nativeBinding: sqliteAddon() });
  try {
    const clock = { mode: "manual" as const, now: () => 0 };
    const ctx = createContext({
      db,
      clock,
      ids: cryptoIds(),
      bus: createBus(),
      resolveHost: async () => [],
    });
    const control = {} as SandboxControl; // never called: only /openapi.json is asked
    const options = { ctx, control, version: packageVersion() };
    const app = host === "otp" ? createOtpApp(options) : createMessagingApp(options);
    const response = await app.request(`http://127.0.0.1:${host === "otp" ? 4011 : 4010}/openapi.json`);
    return (await response.json()) as Record<string, unknown>;
  } finally {
    db.close();
  }
}
