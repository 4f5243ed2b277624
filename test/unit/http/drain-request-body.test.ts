import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { drainRequestBody, type DrainLimits } from "../../../src/gateway/http/drain-request-body.js";

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A server that refuses every body at once: drains it within `limits`, then answers 413 and closes. */
async function refusingServer(limits: DrainLimits): Promise<{ port: number; drained: Promise<number> }> {
  let report!: (bytes: number) => void;
  const drained = new Promise<number>((r) => (report = r));
  const server = http.createServer(async (req, res) => {
    let bytes = 0;
    req.on("data", (c: Buffer) => (bytes += c.length));
    await drainRequestBody(req, limits);
    report(bytes);
    res.writeHead(413, { connection: "close", "content-type": "text/plain" });
    res.end("too large");
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as net.AddressInfo).port, drained };
}

/** Uploads `size` bytes (or until the server closes) and collects what comes back. */
function upload(port: number, size: number, stallAfter?: number): Promise<{ answer: string; writeError?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    let writeError: string | undefined;
    socket.on("data", (d) => (answer += d.toString()));
    socket.on("error", (e: NodeJS.ErrnoException) => (writeError = e.code));
    socket.on("close", () => resolve({ answer, writeError }));
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, "x");
    let written = 0;
    const limit = stallAfter ?? size;
    const pump = () => {
      while (written < limit && !socket.destroyed) {
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once("drain", pump);
      }
    };
    pump();
  });
}

describe("drainRequestBody", () => {
  it("reads a refused upload to its end, so the client finishes writing and reads the answer", async () => {
    const { port, drained } = await refusingServer({ maxBytes: 64 * 1024 * 1024, maxMs: 10_000 });
    const result = await upload(port, 8 * 1024 * 1024);
    expect(await drained).toBe(8 * 1024 * 1024);
    expect(result.writeError).toBeUndefined();
    expect(result.answer).toMatch(/^HTTP\/1\.1 413/);
  });

  it("stops at the byte limit, keeping nothing", async () => {
    const { port, drained } = await refusingServer({ maxBytes: 1024 * 1024, maxMs: 10_000 });
    void upload(port, 64 * 1024 * 1024);
    const bytes = await drained;
    expect(bytes).toBeGreaterThan(1024 * 1024);
    expect(bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it("stops at the time limit when the client stalls", async () => {
    const { port, drained } = await refusingServer({ maxBytes: 64 * 1024 * 1024, maxMs: 200 });
    const result = upload(port, 8 * 1024 * 1024, 256 * 1024);
    expect(await drained).toBe(256 * 1024);
    expect((await result).answer).toMatch(/^HTTP\/1\.1 413/);
  });
});
