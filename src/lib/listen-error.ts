import { AppError } from "./app-error.js";

/**
 * Why a host could not listen on `host:port`: 409 `port_in_use` when another process holds the
 * port, else 400 `invalid_request` (an address not on this machine, a port it may not use).
 */
export function listenError(host: string, port: number, error: unknown): AppError {
  const message = `Cannot listen on ${host}:${port}: ${(error as Error).message}`;
  return (error as NodeJS.ErrnoException).code === "EADDRINUSE"
    ? new AppError("port_in_use", 409, message)
    : new AppError("invalid_request", 400, message);
}
