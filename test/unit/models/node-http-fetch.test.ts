import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeHttpFetch } from "../../../src/models/node-http-fetch.js";

let server: http.Server;
let base: string;
const seen: { method?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method, headers: req.headers, body });
      if (req.url === "/empty") return res.writeHead(204).end();
      if (req.url === "/hang") return res.writeHead(200, { "content-type": "text/event-stream" }).write("data: 1\n\n");
      res.writeHead(201, { "content-type": "application/json", "x-request-id": "r1" });
      res.end(JSON.stringify({ echo: body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("nodeHttpFetch", () => {
  it("sends method, headers and a byte body; answers with a real Response", async () => {
    const res = await nodeHttpFetch(`${base}/x`, {
      method: "POST",
      headers: new Headers({ "Content-Type": "application/json", Authorization: "Bearer k" }),
      body: Buffer.from('{"a":"ü"}'),
    });
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get("x-request-id")).toBe("r1");
    expect(await res.json()).toEqual({ echo: '{"a":"ü"}' });
    const last = seen.at(-1)!;
    expect(last.method).toBe("POST");
    expect(last.headers["content-type"]).toBe("application/json");
    expect(last.headers.authorization).toBe("Bearer k");
  });

  it("gives a 204 a null body", async () => {
    const res = await nodeHttpFetch(`${base}/empty`, { method: "POST", body: "x" });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it("rejects with the signal's reason when aborted before the response", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop now"));
    await expect(nodeHttpFetch(`${base}/x`, { method: "POST", body: "x", signal: controller.signal })).rejects.toThrow("stop now");
  });

  it("ends a streaming body with an error when aborted mid-stream", async () => {
    const controller = new AbortController();
    const res = await nodeHttpFetch(`${base}/hang`, { method: "POST", body: "x", signal: controller.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: 1\n\n");
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
  });

  it("leaves bodies it does not send as bytes (forms, streams) to the global fetch", async () => {
    const form = new URLSearchParams({ a: "1" });
    const res = await nodeHttpFetch(`${base}/x`, { method: "POST", body: form });
    expect(await res.json()).toEqual({ echo: "a=1" });
  });
});
