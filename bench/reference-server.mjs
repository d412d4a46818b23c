// The reference every throughput figure is a ratio of: a bare node:http server that parses the
// JSON body and does one prepared SQLite insert per request (WAL, synchronous=NORMAL), as
// TOOLCHAIN.md measured it. Prints its URL on stdout, then serves until killed.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import Database from "better-sqlite3";

const db = new Database(process.argv[2] ?? ":memory:");
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.exec("CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at INTEGER NOT NULL)");
const insert = db.prepare("INSERT INTO messages (id, body, created_at) VALUES (?, ?, ?)");

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const id = randomUUID();
    insert.run(id, JSON.stringify(body), Date.now());
    res.writeHead(202, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: { id, status: "queued" } }));
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
