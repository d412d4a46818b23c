import { HttpClient, type ClientOptions } from "./http.js";
import { numbersClient, sandboxClient } from "./sandbox.js";

/** A typed client of both hosts and the control API. */
export function createClient(options: ClientOptions) {
  const http = new HttpClient(options);
  return {
    http,
    numbers: numbersClient(http),
    sandbox: sandboxClient(http),
  };
}

/** The client `createClient` returns. */
export type MsgctlClient = ReturnType<typeof createClient>;
