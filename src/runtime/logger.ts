/** Where the running sandbox reports what happens; `serve` prints it, tests keep it quiet. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
