/**
 * Upload bodies of POST /v1/attachments. Browser-safe like all of the client: Web Crypto for the
 * boundary, no Node module.
 */

/** A file to upload: its name and its bytes (a `Blob` from `fs.openAsBlob` streams from disk, a `File` is one). */
export interface UploadSource {
  filename: string;
  data: Blob | Uint8Array;
}

/** How far an upload has come, in bytes of file data. */
export type UploadProgress = (sent: number, total: number) => void;

const encoder = new TextEncoder();

// The WHATWG multipart/form-data encoding of a filename: quotes and line breaks percent-escaped.
const quoted = (name: string) => name.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

/**
 * The files as FormData, one `file` part each: a body every runtime sends (browsers stream no
 * request body over HTTP/1.1); Node's fetch still reads a file's bytes only as they are sent.
 */
export function formDataOf(files: UploadSource[]): FormData {
  const form = new FormData();
  for (const file of files) {
    const data = file.data instanceof Blob ? file.data : new Blob([new Uint8Array(file.data)]);
    form.append("file", data, file.filename);
  }
  return form;
}

/**
 * A multipart/form-data body with one `file` part per source, as a stream: files are read as
 * the request is sent (never all in memory), and `onProgress` hears of every chunk taken. It
 * needs a runtime that streams request bodies (Node; a browser only over HTTP/2).
 */
export function multipartBody(
  files: UploadSource[],
  onProgress?: UploadProgress,
): { body: ReadableStream<Uint8Array>; contentType: string } {
  const random = crypto.getRandomValues(new Uint8Array(12));
  const boundary = `----msgctl${Array.from(random, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
  const total = files.reduce(
    (sum, file) => sum + (file.data instanceof Blob ? file.data.size : file.data.byteLength),
    0,
  );
  let sent = 0;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (const file of files) {
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      const stream = file.data instanceof Blob ? file.data.stream() : new Blob([new Uint8Array(file.data)]).stream();
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
        sent += chunk.byteLength;
        onProgress?.(sent, total);
        yield chunk;
      }
      yield encoder.encode("\r\n");
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  const iterator = chunks();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
