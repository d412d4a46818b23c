/**
 * The loop's sleep between turns. It lasts a real delay but is said to end at a virtual time:
 * a job that falls due before then wakes the loop, one due later needs no wake-up.
 */
export class LoopSleep {
  #end: (() => void) | undefined;
  /** Virtual time the sleep ends (−∞ while the loop is awake). */
  #until = Number.NEGATIVE_INFINITY;

  /** Sleeps `delayMs` real milliseconds, or until woken; the sleep counts as ending at virtual time `until`. */
  sleep(delayMs: number, until: number): Promise<void> {
    this.#until = until;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#until = Number.NEGATIVE_INFINITY;
        this.#end = undefined;
        resolve();
      };
      const timer = setTimeout(done, delayMs);
      this.#end = done;
    });
  }

  /** Wakes the loop, unless what falls due at `dueAt` comes after the sleep ends anyway. */
  wake(dueAt?: number): void {
    if (dueAt !== undefined && dueAt >= this.#until) return;
    this.#end?.();
  }
}
