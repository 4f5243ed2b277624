import { afterEach, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { postJson, startOpenAiServer, TOKEN, userMessage, type TestServer } from "./openai-test-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const UNAUTHORIZED = { error: { message: "Unauthorized", type: "unauthorized" } };

describe("/v1 auth", () => {
  it("answers a missing or wrong bearer with the exact 401 body, on every endpoint", async () => {
    server = await startOpenAiServer();
    const { base } = server;
    const cases: [string, RequestInit][] = [
      ["/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(userMessage("hi")) }],
      ["/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer nope" }, body: "{}" }],
      ["/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json", authorization: TOKEN }, body: "{}" }],
      ["/v1/models", {}],
      ["/v1/models", { headers: { authorization: "Bearer wrong" } }],
      ["/v1/models/openclaw", { headers: { authorization: `Basic ${TOKEN}` } }],
    ];
    for (const [path, init] of cases) {
      const res = await fetch(`${base}${path}`, init);
      expect(res.status, path).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await res.json()).toEqual(UNAUTHORIZED);
    }
    expect(server.turns.inputs).toHaveLength(0);
  });

  it("accepts the bearer case-insensitively", async () => {
    server = await startOpenAiServer();
    const res = await fetch(`${server.base}/v1/models`, { headers: { authorization: `bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
  });

  it("the openai SDK surfaces a wrong key as AuthenticationError", async () => {
    server = await startOpenAiServer();
    const client = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: "wrong", maxRetries: 0 });
    const err = await client.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((err as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);
  });

  it("locks out repeated wrong bearers with 429 + Retry-After; missing bearers do not count", async () => {
    server = await startOpenAiServer({ rateLimit: { maxAttempts: 3, lockoutMs: 90_000, exemptLoopback: false } });
    const models = (authorization?: string) => fetch(`${server!.base}/v1/models`, { headers: authorization ? { authorization } : {} });
    for (let i = 0; i < 5; i++) expect((await models()).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await models("Bearer wrong")).status).toBe(401);
    const locked = await models("Bearer wrong");
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toMatch(/^(89|90)$/);
    expect(await locked.json()).toEqual({
      error: { message: "Too many failed authentication attempts. Please try again later.", type: "rate_limited" },
    });
    // While locked out even the right token waits; the SDK sees RateLimitError.
    expect((await models(`Bearer ${TOKEN}`)).status).toBe(429);
    const client = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: TOKEN, maxRetries: 0 });
    expect(await client.models.list().catch((e: unknown) => e)).toBeInstanceOf(OpenAI.RateLimitError);
  });

  it("exempts loopback by default", async () => {
    server = await startOpenAiServer({ rateLimit: { maxAttempts: 2 } });
    for (let i = 0; i < 4; i++) {
      expect((await fetch(`${server.base}/v1/models`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    }
    expect((await fetch(`${server.base}/v1/models`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it("password mode checks the bearer against the password", async () => {
    server = await startOpenAiServer({ auth: { mode: "password", password: "hunter2-long-password" } });
    expect((await postJson(server.base, "/v1/chat/completions", userMessage("hi"))).status).toBe(401);
    const ok = await postJson(server.base, "/v1/chat/completions", userMessage("hi"), { authorization: "Bearer hunter2-long-password" });
    expect(ok.status).toBe(200);
  });

  it("mode none needs no header", async () => {
    server = await startOpenAiServer({ auth: { mode: "none" } });
    const res = await fetch(`${server.base}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(userMessage("hi")),
    });
    expect(res.status).toBe(200);
  });

  it("is disabled → OpenAI-shaped 404 before auth, and follows the flag per request", async () => {
    server = await startOpenAiServer();
    server.setEnabled(false);
    for (const res of [
      await postJson(server.base, "/v1/chat/completions", userMessage("hi")),
      await fetch(`${server.base}/v1/models`),
      await fetch(`${server.base}/v1/models/openclaw`, { headers: { authorization: `Bearer ${TOKEN}` } }),
    ]) {
      expect(res.status).toBe(404);
      const body = (await res.json()) as { error: { message: string; type: string } };
      expect(body.error.type).toBe("invalid_request_error");
      expect(body.error.message).toBe("Not Found");
    }
    expect(server.turns.inputs).toHaveLength(0);
    server.setEnabled(true);
    expect((await postJson(server.base, "/v1/chat/completions", userMessage("hi"))).status).toBe(200);
  });

  it("answers a wrong method with 405 + Allow", async () => {
    server = await startOpenAiServer();
    const get = await fetch(`${server.base}/v1/chat/completions`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await get.text()).toBe("Method Not Allowed");
    const post = await fetch(`${server.base}/v1/models`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("/v1 behind a reverse proxy (gateway.trustedProxies)", () => {
  const PROXY_REFUSAL = {
    error: {
      message: "Proxy client attribution is required. Configure gateway.trustedProxies narrowly and make the proxy overwrite or safely rebuild forwarded client headers.",
      type: "proxy_attribution_required",
    },
  };

  it("refuses forwarding headers no trusted proxy vouches for with 403, even with the right bearer", async () => {
    server = await startOpenAiServer();
    for (const header of ["x-forwarded-for", "x-real-ip", "forwarded", "x-forwarded-proto"]) {
      const res = await fetch(`${server.base}/v1/models`, { headers: { authorization: `Bearer ${TOKEN}`, [header]: header === "forwarded" ? "for=203.0.113.5" : "203.0.113.5" } });
      expect(res.status, header).toBe(403);
      expect(await res.json()).toEqual(PROXY_REFUSAL);
    }
    expect((await fetch(`${server.base}/v1/models`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it("through a trusted proxy the forwarded client is who the limiter locks out, without the loopback exemption", async () => {
    server = await startOpenAiServer({ trustedProxies: ["127.0.0.1", "::1"], rateLimit: { maxAttempts: 2, lockoutMs: 60_000, exemptLoopback: true } });
    const models = (authorization: string, client?: string) => fetch(`${server!.base}/v1/models`, { headers: { authorization, ...(client ? { "x-forwarded-for": client } : {}) } });
    expect((await models(`Bearer ${TOKEN}`, "198.51.100.7")).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await models("Bearer wrong", "203.0.113.5")).status).toBe(401);
    expect((await models(`Bearer ${TOKEN}`, "203.0.113.5")).status).toBe(429);
    // Another client behind the same proxy, and this host directly, are not locked out.
    expect((await models(`Bearer ${TOKEN}`, "198.51.100.7")).status).toBe(200);
    expect((await models(`Bearer ${TOKEN}`)).status).toBe(200);
    // A trusted proxy that names no client beyond this host is refused.
    const local = await models(`Bearer ${TOKEN}`, "127.0.0.1");
    expect(local.status).toBe(403);
  });
});
