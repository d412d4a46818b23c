import type { Checkpointer } from "./checkpointer.js";
import type { Db } from "./db.js";

/** Who hears of every commit that wrote something: `wrote()` tells them. */
export interface CommitListeners extends Pick<Db, "onCommit"> {
  /** Called after every commit that wrote something (a batch, a write outside one, a wipe). */
  wrote(): void;
}

/** The checkpointer (it counts commits) and the `onCommit` listeners (views that refresh on any change). */
export function commitListeners(checkpointer: Checkpointer | undefined): CommitListeners {
  const listeners = new Set<() => void>();
  return {
    wrote() {
      checkpointer?.committed();
      for (const listener of listeners) listener();
    },
    onCommit(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
