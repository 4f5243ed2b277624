// Records the frames of a real client (OpenClaw's TUI) against this gateway, for test fixtures.
//   LISTEN_PORT=18790 TARGET=ws://127.0.0.1:18789 OUT=/tmp/frames.jsonl node test/tools/record-ws-frames.mjs
// then point the client at ws://127.0.0.1:18790. Every frame, both directions, is appended to OUT
// as {conn, dir: "c2s" | "s2c", ts, frame}. Strip the token from the connect frame before keeping it.
import fs from "node:fs";
import { WebSocket, WebSocketServer } from "ws";

const listenPort = Number(process.env.LISTEN_PORT ?? 18790);
const target = process.env.TARGET ?? "ws://127.0.0.1:18789";
const out = process.env.OUT ?? "frames.jsonl";
let connections = 0;

new WebSocketServer({ port: listenPort }).on("connection", (client) => {
  const conn = ++connections;
  const upstream = new WebSocket(target, { maxPayload: 64 * 1024 * 1024 });
  const early = [];
  const log = (dir, data) => fs.appendFileSync(out, `${JSON.stringify({ conn, dir, ts: Date.now(), frame: JSON.parse(data.toString()) })}\n`);
  client.on("message", (data) => {
    log("c2s", data);
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data.toString());
    else early.push(data.toString());
  });
  upstream.on("open", () => early.splice(0).forEach((frame) => upstream.send(frame)));
  upstream.on("message", (data) => {
    log("s2c", data);
    client.send(data.toString());
  });
  upstream.on("close", (code, reason) => client.close(code, reason));
  upstream.on("error", () => client.close());
  client.on("close", () => upstream.close());
});
process.stdout.write(`recording ${target} on ws://127.0.0.1:${listenPort} into ${out}\n`);
