import type { MsgctlClient } from "../../client/client.js";

/** What a step runs with: the file's client and account, the values saved so far. */
export interface StepContext {
  /** A client with the file's account's keys. */
  client: MsgctlClient;
  /** Built-ins and saved results, by name. */
  values: Map<string, unknown>;
  /** The outbox position when the file started: only later events are the file's. */
  since: number;
  /** Fetch for the `http` step (the user's own app). */
  fetch: typeof fetch;
}

/** What a step did: its result (kept under `save`) and a line about it. */
export interface Done {
  passed: true;
  message: string;
  result: unknown;
}

/** An unmet expectation: the file goes on (unless --bail). */
export interface Unmet {
  passed: false;
  message: string;
  /** What was expected and what was seen, in lines for people. */
  details: string[];
  result?: unknown;
}

/** What running a step came to. */
export type Outcome = Done | Unmet;

/** A step that could not be done (an API refusal, an unreachable app): the file stops there. */
export class StepFailed extends Error {
  override readonly name = "StepFailed";
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

/** A step done. */
export const done = (message: string, result: unknown): Done => ({ passed: true, message, result });

/** JSON on one line, cut to `max` characters. */
export function brief(value: unknown, max = 160): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
