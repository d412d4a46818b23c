import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { useServe } from "../helpers/cli.js";

/**
 * An error answered before the request's body was read (docs/spec-decisions.md, Serving): the
 * rest of the body is read and dropped before the connection closes, even one the client asked to
 * close, so a client still writing its body is not reset and one that writes the whole request
 * before reading still finds the answer. Here the client sends the head and 64 KiB, waits for the
 * answer, then writes 3 MB more: the server has answered and must still be reading.
 */
describe("answers given before a 3 MB body was read", () => {
  const sandbox = useServe();

  /** The answer's status line and whether writing the rest of the body after it failed. */
  function answerThenWriteRest(
    port: number,
    head: string,
    rest: Buffer,
  ): Promise<{ statusLine: string; writeError: string | null }> {
    return new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      let received = "";
      let writeError: string | null = null;
      let wrote = false;
      socket.on("error", (error: NodeJS.ErrnoException) => (writeError ??= error.code ?? error.message));
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1");
        if (wrote || !received.includes("\r\n\r\n")) return;
        wrote = true;
        socket.write(rest, (error) => {
          if (error) writeError ??= (error as NodeJS.ErrnoException).code ?? error.message;
          socket.end();
        });
      });
      socket.on("close", () => resolve({ statusLine: received.split("\r\n")[0] ?? "", writeError }));
      socket.write(head);
    });
  }

  it.each([
    ["a path that does not decode", "/sandbox/v1/messages/%ZZ/read", "sk_test_acme_0000000000000000", "404"],
    ["a key refused", "/v1/messages", "sk_test_wrong", "401"],
    ["a body over 1 MiB", "/v1/messages", "sk_test_acme_0000000000000000", "413"],
  ])(
    "%s, on a connection to close: answered, and the rest of the body is still taken",
    async (_what, path, key, status) => {
      const port = Number(new URL(sandbox.serve.ready.base_url).port);
      const length = 64 * 1024 + 3_000_000;
      const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${"a".repeat(64 * 1024)}`;
      const { statusLine, writeError } = await answerThenWriteRest(port, head, Buffer.alloc(3_000_000, 97));
      expect(statusLine).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(writeError).toBeNull();
    },
  );
});
