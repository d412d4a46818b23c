import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What `serve` writes to `<state-dir>/sandbox.json` so other commands find it (SANDBOX.md section 1). */
export interface StateFile {
  pid: number;
  base_url: string;
  otp_url: string;
  inspector_url: string;
  clock: "real" | "manual";
  db: string;
  started_at: string;
  accounts: { name: string; api_key: string | null; otp_api_key: string | null; numbers: unknown[] }[];
}

/** The state file's path in a state directory. */
export const stateFilePath = (stateDir: string) => join(stateDir, "sandbox.json");

/** Writes the state file (readable only by the user: it holds keys). */
export function writeStateFile(stateDir: string, state: StateFile): string {
  mkdirSync(stateDir, { recursive: true });
  const path = stateFilePath(stateDir);
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  return path;
}

/** Reads the state file, or undefined when there is none (or it is not ours). */
export function readStateFile(stateDir: string): StateFile | undefined {
  try {
    const state = JSON.parse(readFileSync(stateFilePath(stateDir), "utf8")) as StateFile;
    return typeof state.base_url === "string" ? state : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the state file if it is still this process's. */
export function removeStateFile(stateDir: string, pid: number): void {
  if (readStateFile(stateDir)?.pid === pid) rmSync(stateFilePath(stateDir), { force: true });
}
