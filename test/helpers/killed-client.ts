import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A raw HTTP/1.1 POST of a JSON body, as a client writes it on the wire. */
export function rawJsonPost(urlPath: string, body: unknown, headers: Record<string, string> = {}): string {
  const json = JSON.stringify(body);
  const lines = [`POST ${urlPath} HTTP/1.1`, "host: 127.0.0.1", "content-type: application/json", `content-length: ${Buffer.byteLength(json)}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n${json}`;
}

/**
 * A client process connects to 127.0.0.1:`port` (a fake no other client is connected to), writes
 * `request` and is SIGKILLed, as a gateway
 * killed just after it sent a call. This event loop stays blocked until the bytes are in the
 * kernel, so the server accepts the connection only afterwards; resolves once `openConnections()`
 * shows it accepted. A connection is accepted in one poll phase and read in the next, so on return
 * the request is not read yet: what the caller does now runs where an afterEach that awaited the
 * killed gateway's exit can run.
 */
export async function sendFromKilledClient(port: number, request: string, openConnections: () => number): Promise<void> {
  const flag = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "killed-client-")), "sent");
  const script = `const s = require("node:net").connect(${port}, "127.0.0.1", () => s.write(${JSON.stringify(request)}, () => require("node:fs").writeFileSync(${JSON.stringify(flag)}, ""))); setInterval(() => {}, 1000);`;
  const client = spawn(process.execPath, ["-e", script], { stdio: "ignore" });
  const deadline = Date.now() + 10_000;
  while (!fs.existsSync(flag) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  client.kill("SIGKILL");
  if (!fs.existsSync(flag)) throw new Error("the client process did not write its request within 10 s");
  while (openConnections() === 0) await new Promise((resolve) => setImmediate(resolve));
}
