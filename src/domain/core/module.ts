import type { DomainContext, EventFanOut } from "./context.js";
import type { JobCompletion, JobHandler, JobRun } from "./jobs.js";

/**
 * What one concept plugs into the sandbox: the scheduler job kinds it runs and the work it does
 * inside every event's transaction. The composition root (runtime/modules.ts) lists the modules;
 * nothing is registered or replaced at run time.
 */
export interface DomainModule {
  readonly name: string;
  /** Scheduler job kinds and their handlers. */
  readonly jobs?: Readonly<Record<string, JobHandler>>;
  /** Run inside every event's transaction, in module order (webhook fan-out). */
  readonly fanOuts?: readonly EventFanOut[];
}

/** A job handler with its context bound: what the scheduler calls. */
export interface BoundJobHandler {
  (payload: unknown, run: JobRun): void | Promise<void | JobCompletion>;
  /**
   * True when the handler is an async function: nothing in it throws to its caller (a failure
   * rejects its promise once the call has returned), and it writes only in transactions of its own
   * or its completion (JobHandler), so the scheduler starts it without a savepoint around the call.
   */
  readonly isAsync?: boolean;
}

/** The constructor of every `async function`, to tell them from functions that may return a promise. */
const AsyncFunction = (async () => {}).constructor;

/** The fan-outs of every module, in order. */
export function fanOutsOf(modules: readonly DomainModule[]): EventFanOut[] {
  return modules.flatMap((module) => module.fanOuts ?? []);
}

/** Every module's job handlers bound to `ctx`; a job kind declared twice is a wiring bug. */
export function jobHandlersOf(ctx: DomainContext, modules: readonly DomainModule[]): Record<string, BoundJobHandler> {
  const handlers: Record<string, BoundJobHandler> = {};
  for (const module of modules) {
    for (const [kind, handler] of Object.entries(module.jobs ?? {})) {
      if (kind in handlers) throw new Error(`Job kind "${kind}" is declared twice (module ${module.name})`);
      const bound = (payload: unknown, run: JobRun) => handler(ctx, payload, run);
      handlers[kind] = Object.assign(bound, { isAsync: handler instanceof AsyncFunction });
    }
  }
  return handlers;
}
