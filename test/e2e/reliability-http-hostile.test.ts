import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import OpenAI from "openai";
import { beforeAll, describe, expect, it } from "vitest";
import { rawHttp, rawJsonPost } from "../helpers/raw-http.js";
import { allSessionFiles, chatRequests, lastUserText, messageText } from "../helpers/reliability.js";
import { useRpcGateway } from "../helpers/rpc-gateway.js";

/**
 * Issue 4 § Reliability: "Hostile input to the HTTP endpoint (bad JSON, huge body, wrong types,
 * missing messages, bad session-key header) gets the right 4xx and changes nothing."
 *
 * Every hostile request must get its 4xx with OpenAI's `{error:{message,type}}` envelope, and
 * afterwards the gateway must be exactly as before: same sessions, no new files under the
 * sessions dir, no idempotency record, and no request to the model. Then the real `openai` SDK
 * works (plain and streaming), and the same `user` lands in the same session.
 */

const TOKEN = "rel-http-token";
let url: string;

const fixture = useRpcGateway(TOKEN, { http: true });
beforeAll(() => {
  url = `${fixture.gw.httpUrl}/v1/chat/completions`;
});

const VALID = { model: "openclaw", messages: [{ role: "user", content: "hello" }] };

interface Snapshot {
  sessions: number;
  files: string[];
  modelRequests: number;
  ledger: string;
}

async function snapshot(): Promise<Snapshot> {
  const list = await fixture.rpc.request("sessions.list", { limit: 10_000 });
  expect(list.ok, JSON.stringify(list.error)).toBe(true);
  const ledgerFile = path.join(fixture.stateDir, "gateway", "idempotency.jsonl");
  return {
    sessions: list.payload.sessions.length,
    files: allSessionFiles(fixture.stateDir),
    modelRequests: chatRequests(fixture.server).length,
    ledger: fs.existsSync(ledgerFile) ? fs.readFileSync(ledgerFile, "utf8") : "",
  };
}

/** A POST on a connection of its own; `send` writes the body. Rejects on any transport error. */
function uploadOnFreshConnection(send: (req: http.ClientRequest) => void | Promise<void>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent: false, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    Promise.resolve(send(req)).catch(reject);
  });
}

async function post(body: string | object, headers: Record<string, string> = {}): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

function expectOpenAiError(res: { status: number; json: any; text: string }, status: number, label: string): void {
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBe(status);
  expect(res.json, `${label}: body is JSON`).toBeTypeOf("object");
  expect(typeof res.json.error?.message, `${label}: error.message`).toBe("string");
  expect(res.json.error.message.length).toBeGreaterThan(0);
  expect(typeof res.json.error?.type, `${label}: error.type`).toBe("string");
  // One line, no stack trace, no secret.
  expect(res.json.error.message).not.toMatch(/\n\s+at /);
  expect(res.text).not.toContain(TOKEN);
}

describe("hostile input to POST /v1/chat/completions", () => {
  let before: Snapshot;
  beforeAll(async () => {
    before = await snapshot();
  });

  it("missing or wrong bearer → 401 unauthorized", async () => {
    const none = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(VALID) });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: { message: "Unauthorized", type: "unauthorized" } });
    const wrong = await post(VALID, { authorization: "Bearer not-the-token" });
    expectOpenAiError(wrong, 401, "wrong bearer");
    expect(wrong.json.error.type).toBe("unauthorized");
    const notBearer = await post(VALID, { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` });
    expectOpenAiError(notBearer, 401, "basic auth");
  });

  it("bad JSON, empty body, a non-object body → 400 invalid_request_error", async () => {
    for (const [label, body] of [
      ["truncated JSON", '{"model":"openclaw","messages":[{"role":"user","content":"hi"'],
      ["not JSON", "this is not json"],
      ["array body", "[]"],
      ["string body", '"hello"'],
      ["null body", "null"],
    ] as const) {
      const res = await post(body);
      expectOpenAiError(res, 400, label);
      expect(res.json.error.type, label).toBe("invalid_request_error");
    }
    const empty = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" } });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.type).toBe("invalid_request_error");
  });

  it("a 25 MB body → 413, with and without Content-Length", async () => {
    // The gateway reads and discards the rest of the upload before it answers, so the client
    // finishes writing and then reads the 413: never a broken pipe. Each upload goes on a fresh
    // connection: on a reused keep-alive one, the server's idle close could race the first write.
    const huge = Buffer.from(JSON.stringify({ model: "openclaw", messages: [{ role: "user", content: "x".repeat(25 * 1024 * 1024) }] }));
    const withLength = await uploadOnFreshConnection((req) => {
      req.setHeader("content-length", huge.length);
      req.end(huge);
    });
    expect(withLength.status).toBe(413);
    expect(JSON.parse(withLength.body).error).toMatchObject({ message: "Payload too large", type: "invalid_request_error" });

    // Chunked upload (no Content-Length): the limit is enforced while reading.
    const piece = Buffer.alloc(1024 * 1024, "x");
    const chunked = await uploadOnFreshConnection(async (req) => {
      const write = (chunk: Buffer) => new Promise<void>((resolve, reject) => req.write(chunk, (err) => (err ? reject(err) : resolve())));
      await write(Buffer.from('{"model":"openclaw","messages":[{"role":"user","content":"'));
      for (let i = 0; i < 25; i += 1) await write(piece);
      req.end('"}]}');
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.type).toBe("invalid_request_error");
  });

  it("wrong types and missing or misplaced messages → 400 naming the field", async () => {
    const cases: [string, unknown, string | undefined][] = [
      ["messages is a string", { model: "openclaw", messages: "x" }, "messages"],
      ["messages missing", { model: "openclaw" }, "messages"],
      ["messages empty", { model: "openclaw", messages: [] }, "messages"],
      ["stream is a string", { ...VALID, stream: "yes" }, "stream"],
      ["model is a number", { ...VALID, model: 42 }, "model"],
      ["user is an object", { ...VALID, user: { id: 1 } }, "user"],
      ["message not an object", { model: "openclaw", messages: ["hi"] }, "messages[0]"],
      ["role unknown", { model: "openclaw", messages: [{ role: "robot", content: "hi" }] }, "messages[0].role"],
      ["content a number", { model: "openclaw", messages: [{ role: "user", content: 7 }] }, "messages[0].content"],
      [
        "last message from the assistant",
        {
          model: "openclaw",
          messages: [
            { role: "user", content: "hi" },
            { role: "assistant", content: "hello" },
          ],
        },
        "messages",
      ],
      ["last message from system", { model: "openclaw", messages: [{ role: "system", content: "be nice" }] }, "messages"],
      ["last user message blank", { model: "openclaw", messages: [{ role: "user", content: "   " }] }, "messages"],
      ["stream_options not an object", { ...VALID, stream: true, stream_options: "yes" }, "stream_options"],
      ["temperature out of range", { ...VALID, temperature: 9 }, "temperature"],
      ["unknown agent", { ...VALID, model: "openclaw/nobody" }, "model"],
    ];
    for (const [label, body, param] of cases) {
      const res = await post(body as object);
      expectOpenAiError(res, 400, label);
      expect(res.json.error.type, label).toBe("invalid_request_error");
      if (param) expect(res.json.error.param, label).toBe(param);
    }
  });

  it("a non-JSON content type → 415", async () => {
    const res = await post(JSON.stringify(VALID), { "content-type": "text/plain" });
    expectOpenAiError(res, 415, "text/plain");
  });

  it("a bad x-openclaw-session-key header → 400, never another session", async () => {
    const cases: [string, string][] = [
      ["600 characters", `agent:main:${"k".repeat(589)}`],
      ["spaces", "agent:main:has spaces"],
      ["path traversal", "agent:main:../../etc"],
      ["reserved cron", "agent:main:cron:nightly"],
      ["reserved subagent", "subagent:x"],
      ["non-ASCII", "agent:main:caf\u00e9"],
      ["tab inside", "agent:main:a\tb"],
    ];
    for (const [label, key] of cases) {
      const res = await rawHttp(fixture.gw.port, rawJsonPost("/v1/chat/completions", JSON.stringify(VALID), [`Authorization: Bearer ${TOKEN}`, `x-openclaw-session-key: ${key}`]));
      let json: any;
      try {
        json = JSON.parse(res.body);
      } catch {
        json = undefined;
      }
      expectOpenAiError({ status: res.status, json, text: res.body }, 400, `session key with ${label}`);
      expect(json.error.param, label).toBe("x-openclaw-session-key");
    }
  });

  it("control characters in x-openclaw-session-key → 400 in OpenAI's error envelope", async () => {
    // Bytes no HTTP client library will send; Node's HTTP parser refuses them before any route
    // runs, so the gateway's server-level client-error handler decides the body.
    for (const ctl of ["\u0001", "\u001b[31m", "\u0000", "\u007f"]) {
      const res = await rawHttp(
        fixture.gw.port,
        rawJsonPost("/v1/chat/completions", JSON.stringify(VALID), [`Authorization: Bearer ${TOKEN}`, `x-openclaw-session-key: agent:main:a${ctl}b`]),
      );
      let json: any;
      try {
        json = JSON.parse(res.body);
      } catch {
        json = undefined;
      }
      expectOpenAiError({ status: res.status, json, text: res.body }, 400, `control character ${JSON.stringify(ctl)} (got ${JSON.stringify(res.raw.slice(0, 300))})`);
    }
  });

  it("changed nothing: same sessions, no new files, no idempotency record, no model request", async () => {
    const after = await snapshot();
    expect(after).toEqual(before);
    expect(chatRequests(fixture.server)).toHaveLength(0);
    expect((await fetch(`${fixture.gw.httpUrl}/readyz`)).status).toBe(200);
    expect(fixture.gw.proc.exitCode).toBeNull();
  });
});

describe("afterwards the endpoint works with the real openai SDK", () => {
  it("answers non-streaming and streaming; the same `user` continues the same session", async () => {
    fixture.server.setResponder((req) => ({ text: `A:${lastUserText(req)}` }));
    const client = new OpenAI({ baseURL: `${fixture.gw.httpUrl}/v1`, apiKey: TOKEN, maxRetries: 0 });
    const before = await snapshot();

    const plain = await client.chat.completions.create({ model: "openclaw", user: "alice", messages: [{ role: "user", content: "first question" }] });
    expect(plain.object).toBe("chat.completion");
    expect(plain.choices[0]!.message.content).toBe("A:first question");
    expect(plain.choices[0]!.finish_reason).toBe("stop");

    const stream = await client.chat.completions.create({
      model: "openclaw",
      user: "alice",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "second question" }],
    });
    let text = "";
    let finish: string | null | undefined;
    let sawUsage = false;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) sawUsage = true;
    }
    expect(text).toBe("A:second question");
    expect(finish).toBe("stop");
    expect(sawUsage).toBe(true);

    // One model request per call, and the second one saw the first turn: same session.
    const requests = chatRequests(fixture.server);
    expect(requests.length).toBe(before.modelRequests + 2);
    const context = JSON.stringify(requests.at(-1)!.body.messages);
    expect(context).toContain("first question");
    expect(context).toContain("A:first question");

    const after = await snapshot();
    expect(after.sessions).toBe(before.sessions + 1);
    // OpenAI's API has no idempotency key: nobody can re-send a completion's run id, so the
    // ledger keeps no record of it (in memory or on disk).
    expect(after.ledger).toBe(before.ledger);
    const history = await fixture.rpc.request("chat.history", { sessionKey: "agent:main:openai-user:alice" });
    expect(history.payload.messages.map((m: any) => `${m.role}:${messageText(m)}`)).toEqual([
      "user:first question",
      "assistant:A:first question",
      "user:second question",
      "assistant:A:second question",
    ]);

    // A wrong key through the SDK raises its usual error class.
    const bad = new OpenAI({ baseURL: `${fixture.gw.httpUrl}/v1`, apiKey: "wrong", maxRetries: 0 });
    await expect(bad.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "hi" }] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    expect(chatRequests(fixture.server).length).toBe(before.modelRequests + 2);
  });
});
