// A local webhook receiver for the delivery benchmarks, in a process of its own like a user's app:
// a bare node:http server that answers every POST with the status given as argv[2] (default 200)
// and notes when each event arrived. `GET /stats` answers the count and, per X-Msgctl-Event-Id,
// the wall-clock arrival in milliseconds; `DELETE /stats` forgets them. Prints its URL, then
// serves until killed.
import { createServer } from "node:http";

const status = Number(process.argv[2] ?? 200);
let arrivals = [];
let posts = 0;
/** TCP connections opened since the last DELETE: kept-alive deliveries open few. */
let connections = 0;

const server = createServer((req, res) => {
  if (req.method === "GET") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ posts, connections, arrivals }));
    return;
  }
  if (req.method === "DELETE") {
    posts = 0;
    connections = 0;
    arrivals = [];
    res.writeHead(204).end();
    return;
  }
  // The body is read to its end (as a real receiver would) before answering.
  req.on("data", () => {});
  req.on("end", () => {
    posts++;
    const id = req.headers["x-msgctl-event-id"];
    // The wall clock, as msgctl stamps created_at: performance.timeOrigin is fixed when the
    // process starts and drifts from Date.now() as the system clock is slewed.
    if (id) arrivals.push([id, Date.now()]);
    res.writeHead(status, { "content-type": "text/plain" }).end("ok");
  });
});
server.on("connection", () => connections++);
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}/hook`));
