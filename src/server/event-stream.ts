import { EventStream, type H3Event } from "h3";

/**
 * Opens a server-sent event stream that says `connected`, sends a keep-alive comment every 15 s
 * (proxies close idle streams), and calls the unsubscribe function `subscribe` returned once the
 * client goes away. `subscribe` gets the stream to push to.
 */
export function openEventStream(event: H3Event, subscribe: (stream: EventStream) => () => void): EventStream {
  // Like every answer, a stream carries its request id (staged headers go out with the stream's).
  const requestId = (event.context as { requestId?: string }).requestId;
  if (requestId) event.res.headers.set("x-request-id", requestId);
  const stream = new EventStream(event);
  const unsubscribe = subscribe(stream);
  void stream.pushComment("connected");
  const keepAlive = setInterval(() => void stream.pushComment("keep-alive"), 15_000);
  stream.onClosed(() => {
    clearInterval(keepAlive);
    unsubscribe();
  });
  return stream;
}
