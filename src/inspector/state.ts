import { useEffect, useRef, useState } from "preact/hooks";
import type { AccountView, ClockView, Delivery, EventView } from "../contract/types.js";
import { createClient, type MsgctlClient } from "../client/client.js";
import { ApiError, ConnectionError } from "../client/http.js";
import { connectActivity } from "./live.js";

/** Events kept in the page, newest first. */
const EVENTS_KEPT = 500;
/** A contact's typing bubble hides by itself after this long without news, on the sandbox clock. */
const TYPING_SHOWN_MS = 60_000;

/** Who is typing in a thread, until when (sandbox time, ms). */
export interface Typing {
  from: string;
  until: number;
}

/** Everything the views share; each view loads its own lists and reloads them on `revision`. */
export interface InspectorState {
  client: MsgctlClient | null;
  accounts: AccountView[];
  account: AccountView | null;
  clock: ClockView | null;
  /** performance.now() when `clock` was read: a real clock is drawn ticking from there. */
  clockReadAt: number;
  /** Bumped on every `changed` frame: views reload what they show. */
  revision: number;
  events: EventView[];
  /** The newest state of deliveries that had an attempt while the page was open. */
  attempts: Map<string, Delivery>;
  typing: Map<string, Typing>;
  connected: boolean;
  /** Why the page cannot work (no key, a key refused), for the key form. */
  problem: string | null;
}

let state: InspectorState = {
  client: null,
  accounts: [],
  account: null,
  clock: null,
  clockReadAt: 0,
  revision: 0,
  events: [],
  attempts: new Map(),
  typing: new Map(),
  connected: false,
  problem: null,
};
const listeners = new Set<() => void>();
let disconnect: (() => void) | undefined;

function update(changes: Partial<InspectorState>): void {
  state = { ...state, ...changes };
  for (const listener of listeners) listener();
}

/** The shared state; the component re-renders when it changes. */
export function useInspector(): InspectorState {
  const [, setTick] = useState(0);
  const rendered = state;
  useEffect(() => {
    const listener = () => setTick((n) => n + 1);
    listeners.add(listener);
    // A change between the render and this subscription would be missed: `start` without a key
    // asks for one at once, before the first effect runs, and the page waited forever.
    if (state !== rendered) listener();
    return () => void listeners.delete(listener);
  }, []);
  return state;
}

/**
 * The typed client of the sandbox this page is served from, with one account's key. The OTP
 * control routes are served on this origin too, where they take that key.
 */
const clientFor = (key: string): MsgctlClient =>
  createClient({ baseUrl: location.origin, otpUrl: location.origin, apiKey: key, otpApiKey: key });

const ACCOUNT_KEY = "msgctl-inspector-account";
/** Keys pasted in this tab, by account name: accounts made on demand never show theirs again. */
const PASTED_KEYS = "msgctl-inspector-keys";

const pastedKeys = (): Record<string, string> =>
  JSON.parse(sessionStorage.getItem(PASTED_KEYS) ?? "{}") as Record<string, string>;

/**
 * Starts with `key`: lists the accounts, gives the key (and keys pasted before) to the accounts
 * they belong to, picks the remembered account, goes live. `pasted` is a key a person gave.
 * Resolves with what went wrong, or null. A key that does not work ends a working session only
 * when there is none: "Another key…" mistyped keeps the account shown.
 */
export async function start(key: string | null, pasted = false): Promise<string | null> {
  const fail = (problem: string) => {
    if (!state.client) update({ problem });
    return problem;
  };
  // A key pasted earlier in this tab serves again after a reload where the page shows none.
  key ??= Object.values(pastedKeys())[0] ?? null;
  if (!key) return fail("This sandbox shows no key here: paste an API key (sk_…) of one of its accounts.");
  try {
    const client = clientFor(key);
    const [listed, own] = await Promise.all([client.accounts.list(), client.numbers.list()]);
    // The key's account is the one with its numbers.
    const mine = listed.find((account) =>
      account.numbers.some((number) => own.some((o) => o.handle === number.handle)),
    );
    const keys = pastedKeys();
    if (pasted && mine) sessionStorage.setItem(PASTED_KEYS, JSON.stringify({ ...keys, [mine.name]: key }));
    const accounts = listed.map((account) => ({
      ...account,
      api_key: account.api_key ?? (account === mine ? key : (keys[account.name] ?? null)),
    }));
    const usable = accounts.filter((account) => account.api_key);
    const remembered = pasted ? mine?.name : sessionStorage.getItem(ACCOUNT_KEY);
    const account = usable.find((a) => a.name === remembered) ?? usable.find((a) => a.api_key === key) ?? usable[0];
    if (!account?.api_key) return fail("No account of this sandbox has a key the page may use: paste one.");
    update({ accounts, problem: null });
    await switchAccount(account);
    return null;
  } catch (error) {
    return fail(
      error instanceof ApiError && error.status === 401
        ? "That key is not one of this sandbox's."
        : error instanceof ConnectionError
          ? error.message
          : `Cannot reach the sandbox: ${(error as Error).message}`,
    );
  }
}

/** Shows another account: its key, its threads, its events. */
export async function switchAccount(account: AccountView): Promise<void> {
  if (!account.api_key) return;
  // A thread or delivery open in the address belongs to the account shown before: close it, and
  // let the views follow before they get the new key.
  const view = location.hash.split("/").slice(0, 2).join("/");
  if (state.account && state.account.name !== account.name && view !== location.hash) {
    const followed = new Promise((resolve) => addEventListener("hashchange", resolve, { once: true }));
    location.hash = view;
    await followed;
  }
  disconnect?.();
  sessionStorage.setItem(ACCOUNT_KEY, account.name);
  const client = clientFor(account.api_key);
  update({ client, account, events: [], attempts: new Map(), typing: new Map() });
  const [clock, events] = await Promise.all([
    client.sandbox.clock(),
    client.sandbox.events({ order: "desc", limit: 100 }),
  ]);
  update({ clock, clockReadAt: performance.now(), events: events.data });
  disconnect = connectActivity(account.api_key, {
    event(event) {
      const changes: Partial<InspectorState> = { events: [event, ...state.events].slice(0, EVENTS_KEPT) };
      if (event.payload.type === "conversation.typing") {
        const typing = new Map(state.typing);
        const { conversation_id, from, typing: on } = event.payload;
        if (on) {
          typing.set(conversation_id, { from, until: sandboxNow() + TYPING_SHOWN_MS });
          // A real clock gets there with no event to say so; a manual one when advanced (below).
          setTimeout(() => update({ typing: withoutExpired(state.typing, sandboxNow()) }), TYPING_SHOWN_MS + 100);
        } else typing.delete(conversation_id);
        changes.typing = typing;
      } else if (event.payload.type === "message.received") {
        // A message from someone who was typing ends their bubble, as on a phone.
        const typing = new Map(state.typing);
        typing.delete(event.payload.conversation_id);
        changes.typing = typing;
      }
      update(changes);
    },
    attempt(delivery) {
      update({ attempts: new Map(state.attempts).set(delivery.id, delivery) });
    },
    changed(change) {
      update({
        clock: change.clock,
        clockReadAt: performance.now(),
        revision: state.revision + 1,
        typing: withoutExpired(state.typing, Date.parse(change.clock.now)),
      });
    },
    restored() {
      void restarted();
    },
    connection(open) {
      // Back after a drop: what was missed is reloaded like any change.
      update(open ? { connected: true, revision: state.revision + 1 } : { connected: false });
    },
  });
}

/**
 * After a snapshot replaced the whole sandbox (this page's restore or anyone's): the accounts,
 * the clock and the events are read again. The account shown stays if it is in the snapshot;
 * else the first account whose key still works is shown; with none, the page asks for a key.
 */
export function restarted(): Promise<void> {
  // Once at a time: the page's own restore and the stream's frame about it are one start-over.
  restarting ??= startOver().finally(() => {
    restarting = undefined;
  });
  return restarting;
}
let restarting: Promise<void> | undefined;

async function startOver(): Promise<void> {
  const keys = [state.account?.api_key, ...state.accounts.map((a) => a.api_key)];
  for (const key of new Set(keys)) {
    if (key && (await start(key)) === null) return;
  }
  disconnect?.();
  update({
    client: null,
    account: null,
    problem: "The restored sandbox has none of the keys this page had: paste one.",
  });
}

/** The typing bubbles still showing at `now` (the same map when none expired). */
function withoutExpired(typing: Map<string, Typing>, now: number): Map<string, Typing> {
  const kept = [...typing].filter(([, entry]) => entry.until > now);
  return kept.length === typing.size ? typing : new Map(kept);
}

/** Marks the view stale at once (after the page's own action), without waiting for the stream. */
export const refresh = () => update({ revision: state.revision + 1 });

/** Sets the clock after an advance answered. */
export const setClock = (clock: ClockView) => update({ clock, clockReadAt: performance.now() });

/** The sandbox's time now, in milliseconds: a real clock keeps moving between reads. */
export function sandboxNow(current: InspectorState = state): number {
  if (!current.clock) return Date.now();
  const read = Date.parse(current.clock.now);
  return current.clock.mode === "real" ? read + (performance.now() - current.clockReadAt) : read;
}

/** The result of a load that follows the sandbox live. */
export interface Live<T> {
  data: T | undefined;
  error: string | null;
  /** Loads again now. */
  reload(): void;
}

/**
 * Loads `load()` now, again whenever the sandbox changes (`revision`), and afresh when `deps`
 * change. A change during a load makes one more load after it, never two at once.
 */
export function useLive<T>(load: (() => Promise<T>) | null, deps: unknown[]): Live<T> {
  const { revision } = useInspector();
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [bump, setBump] = useState(0);
  const running = useRef<{ again: boolean } | null>(null);
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // New deps: what was shown belongs to something else, and so does a load still running.
  useEffect(() => {
    generation.current++;
    setData(undefined);
    setError(null);
  }, deps);

  useEffect(() => {
    if (!loadRef.current) return;
    if (running.current) {
      running.current.again = true;
      return;
    }
    const run = async () => {
      const current = { again: false };
      const started = generation.current;
      running.current = current;
      try {
        const next = await loadRef.current?.();
        if (started === generation.current) {
          setData(next);
          setError(null);
        } else current.again = true;
      } catch (failure) {
        if (started === generation.current) setError((failure as Error).message);
        else current.again = true;
      }
      running.current = null;
      if (current.again) void run();
    };
    void run();
  }, [revision, bump, ...deps]);

  return { data, error, reload: () => setBump((n) => n + 1) };
}
