/** A mistake in how a command was called (bad flag value, missing file): exit status 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
