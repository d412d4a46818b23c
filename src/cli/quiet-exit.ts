/**
 * A command that has printed everything itself (its report, under --json too) and only needs its
 * exit status: `run` when an expectation was unmet. Nothing more is printed for it.
 */
export class QuietExit extends Error {
  override readonly name = "QuietExit";
  constructor(readonly exit: number) {
    super(`exit ${exit}`);
  }
}
