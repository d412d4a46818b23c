/** Where the running sandbox reports what happens; `serve` prints it, tests keep it quiet. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Detail for `--log-level debug` (each webhook attempt); optional for loggers that never show it. */
  debug?(message: string, fields?: Record<string, unknown>): void;
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
