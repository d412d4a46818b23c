import { spawn } from "node:child_process";
import { BIN } from "./cli.js";

/** A `msgctl` command running in a real terminal (a pseudo-terminal from util-linux `script`). */
export interface PtyProcess {
  /** Everything printed so far, escape sequences removed. */
  screen(): string;
  /** Resolves once the screen shows `text` after position `from` (a guard, not a wait: it resolves as soon as it appears). */
  waitFor(text: string | RegExp, from?: number): Promise<void>;
  /** Types into the terminal (`\r` is Enter, `\x1b[B` the down arrow). */
  type(keys: string): void;
  exited: Promise<number | null>;
}

/** Keys, as a terminal sends them. */
export const KEYS = { enter: "\r", down: "\u001b[B", up: "\u001b[A", ctrlC: "\u0003" } as const;

const quote = (arg: string) => `'${arg.replace(/'/g, "'\\''")}'`;
// Cursor moves, colours, erases and the private modes inquirer and ora use.
const strip = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");

const GUARD_MS = 15_000;

/**
 * Runs `msgctl ARGS` with a pseudo-terminal on stdin and stdout, as a person would in a
 * terminal: prompts and spinners behave as they do for people. `script` forwards what the test
 * types to the terminal.
 */
export function spawnInPty(args: string[]): PtyProcess {
  const command = `stty cols 120 rows 40; exec ${[process.execPath, BIN, ...args].map(quote).join(" ")}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: "xterm-256color" },
  });
  let raw = "";
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.on("data", (chunk) => {
    raw += String(chunk);
    notify();
  });
  child.stderr.on("data", (chunk) => {
    raw += String(chunk);
    notify();
  });
  const exited = new Promise<number | null>((done) => {
    child.once("exit", (code) => done(code));
    // No `script` (util-linux) on this machine: say so on the screen the failing test prints.
    child.once("error", (error) => {
      raw += `\n[cannot start a terminal: ${error.message}; install util-linux (bsdutils) for \`script\`]\n`;
      done(null);
    });
  });
  const screen = () => strip(raw);
  return {
    screen,
    exited,
    type: (keys) => void child.stdin.write(keys),
    waitFor: (text, from = 0) =>
      new Promise<void>((resolve, reject) => {
        const found = () => {
          const rest = screen().slice(from);
          return typeof text === "string" ? rest.includes(text) : text.test(rest);
        };
        const guard = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(`msgctl ${args.join(" ")}: the terminal never showed ${String(text)}.\nScreen:\n${screen()}`),
          );
        }, GUARD_MS);
        const waiter = () => {
          if (!found()) return;
          clearTimeout(guard);
          waiters.delete(waiter);
          resolve();
        };
        waiters.add(waiter);
        void exited.then(() => setImmediate(waiter));
        waiter();
      }),
  };
}
