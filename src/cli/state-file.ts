import { mkdirSync, openSync, closeSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What `serve` writes to `<state-dir>/sandbox.json` so other commands find it. */
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

/**
 * Writes the state file (readable only by the user: it holds keys), whole: through a temporary
 * file and a rename, so a command reading it meanwhile never sees half of it.
 */
export function writeStateFile(stateDir: string, state: StateFile): string {
  mkdirSync(stateDir, { recursive: true });
  const path = stateFilePath(stateDir);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
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

/**
 * Whether the `msgctl serve` that wrote the state file still runs: signal 0 only asks, and EPERM
 * means a process of another user holds that pid. A pid reused by an unrelated process reads as
 * running: this check is cheap, not proof.
 */
export function writerIsRunning(state: StateFile): boolean {
  // 0 and negative pids name process groups, which `kill` would happily find alive.
  if (!Number.isInteger(state.pid) || state.pid <= 0) return true;
  try {
    process.kill(state.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The sandbox a state file describes when it still runs: its pid is alive and it answers
 * `/healthz` at its `base_url`. A live pid alone is no proof (a container's pids repeat at
 * every start); a file that fails either test is stale. Undefined for none, a stale one, or ours.
 */
export async function liveSandbox(stateDir: string): Promise<StateFile | undefined> {
  const state = readStateFile(stateDir);
  if (!state || !Number.isInteger(state.pid) || state.pid <= 0 || state.pid === process.pid) return undefined;
  if (!writerIsRunning(state)) return undefined;
  try {
    const answer = await fetch(new URL("/healthz", state.base_url), { signal: AbortSignal.timeout(1_000) });
    await answer.body?.cancel();
    return answer.ok ? state : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the state file if it is still this process's. */
export function removeStateFile(stateDir: string, pid: number): void {
  if (readStateFile(stateDir)?.pid === pid) rmSync(stateFilePath(stateDir), { force: true });
}

// A lock older than this was left by a process that died while holding it.
const STALE_LOCK_MS = 5_000;
const LOCK_RETRY_MS = 10;

/**
 * Changes the state file under a lock (`sandbox.json.lock`), so parallel `accounts create` runs
 * (test workers sharing one sandbox) do not overwrite each other's additions. `change` returns
 * the new contents, or undefined to leave the file as it is. Returns what was written.
 */
export async function updateStateFile(
  stateDir: string,
  change: (state: StateFile) => StateFile | undefined,
): Promise<StateFile | undefined> {
  const lock = `${stateFilePath(stateDir)}.lock`;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined; // no state directory: nothing to update
      const age = (() => {
        try {
          return Date.now() - statSync(lock).mtimeMs;
        } catch {
          return 0; // released meanwhile
        }
      })();
      if (age > STALE_LOCK_MS) rmSync(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }
  try {
    const state = readStateFile(stateDir);
    const next = state && change(state);
    if (next) writeStateFile(stateDir, next);
    return next;
  } finally {
    rmSync(lock, { force: true });
  }
}
