import { AppError } from "../../lib/app-error.js";
import { DEFAULT_STATE_DIR } from "../defaults.js";
import { liveSandbox, stateFilePath } from "../state-file.js";

/**
 * Refuses to start beside a running sandbox of the same state directory (it would overwrite
 * its state file, and every command here would talk to the new one). A stale file is replaced.
 */
export async function refuseRunningSandbox(stateDir: string): Promise<void> {
  const running = await liveSandbox(stateDir);
  if (!running) return;
  throw new AppError(
    "sandbox_running",
    409,
    `A sandbox is already running here: pid ${running.pid} at ${running.base_url} (${stateFilePath(stateDir)}). ` +
      "Stop it, or start this one with --state-dir DIR (commands then take the same --state-dir) or --no-state-file, and another --db",
  );
}

/** A busy port's error, naming the sandbox that holds it when a state file knows one. */
export async function portInUse(
  error: AppError,
  options: { port: number; otpPort: number; stateDir: string },
): Promise<AppError> {
  const wanted = [options.port, options.otpPort].filter((port) => port !== 0).map(String);
  for (const dir of new Set([options.stateDir, DEFAULT_STATE_DIR])) {
    const holder = await liveSandbox(dir);
    if (!holder) continue;
    const held = [holder.base_url, holder.otp_url].map((url) => new URL(url).port);
    if (!held.some((port) => wanted.includes(port))) continue;
    return new AppError(
      "port_in_use",
      409,
      `${error.message}. The msgctl sandbox pid ${holder.pid} at ${holder.base_url} holds it (${stateFilePath(dir)}): ` +
        "stop it, or pass --port 0 --otp-port 0 for free ports",
    );
  }
  return error;
}
