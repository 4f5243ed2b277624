import fs from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { openOperator } from "../helpers/ws-client.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";

const fakes = useFakeModelGateway();

const sessionsDir = () => path.join(fakes.gw.stateDir, "agents", "main", "sessions");
const transcripts = () => (fs.existsSync(sessionsDir()) ? fs.readdirSync(sessionsDir()).filter((f) => f.includes(".jsonl")) : []);

async function sessionKeys(): Promise<string[]> {
  const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
  const list = await sock.request("sessions.list", {});
  sock.close();
  return list.payload.sessions.map((s: { key: string }) => s.key);
}

describe("/v1/chat/completions without a session key or user", () => {
  it("answers, streamed and not, and keeps no session: no row, no transcript, nothing toward the cap", async () => {
    const client = new OpenAI({ baseURL: `${fakes.gw.httpUrl}/v1`, apiKey: fakes.gw.token!, maxRetries: 0 });
    const before = transcripts();
    fakes.model.enqueue({ text: "one" }, { text: "two" });
    const completion = await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "hi" }] });
    expect(completion.choices[0]!.message.content).toBe("one");
    const stream = await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "again" }], stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe("two");

    // The session and its transcript go once its turn has settled, just after the answer.
    await expect.poll(async () => (await sessionKeys()).filter((k) => k.includes(":openai:")), { timeout: 10_000 }).toEqual([]);
    await expect.poll(() => transcripts(), { timeout: 10_000 }).toEqual(before);
  });

  it("never lists its one-off session in sessions.json, even while the turn runs", async () => {
    const client = new OpenAI({ baseURL: `${fakes.gw.httpUrl}/v1`, apiKey: fakes.gw.token!, maxRetries: 0 });
    fakes.model.enqueue({ text: "named" });
    // A named session's counters keep the index being written while the anonymous turn runs.
    await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "hi" }], user: "carol" });
    const indexFile = path.join(sessionsDir(), "sessions.json");
    await expect.poll(() => fs.existsSync(indexFile) && fs.readFileSync(indexFile, "utf8").includes("openai-user:carol"), { timeout: 10_000 }).toBe(true);
    const indexed: string[][] = [];
    const watcher = setInterval(() => {
      try {
        indexed.push(Object.keys(JSON.parse(fs.readFileSync(indexFile, "utf8"))));
      } catch {
        // not written yet, or between the temp file and its rename
      }
    }, 5);
    try {
      // Longer than the coalescing delay (1 s): the anonymous turn's own counters are written meanwhile.
      fakes.model.enqueue({ text: "slow", delayMs: 2_000 });
      const completion = await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "anonymous" }] });
      expect(completion.choices[0]!.message.content).toBe("slow");
    } finally {
      clearInterval(watcher);
    }
    expect(indexed.length).toBeGreaterThan(0);
    expect(indexed.flat().filter((k) => k.includes(":openai:"))).toEqual([]);
    expect(indexed.flat()).toContain("agent:main:openai-user:carol");
  });

  it("a chat command in a stateless request leaves no session behind either", async () => {
    const client = new OpenAI({ baseURL: `${fakes.gw.httpUrl}/v1`, apiKey: fakes.gw.token!, maxRetries: 0 });
    const before = transcripts();
    for (const command of ["/new", "/reset", "/stop"]) {
      const completion = await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: command }] });
      expect(completion.choices[0]!.finish_reason).toBe("stop");
    }
    expect((await sessionKeys()).filter((k) => k.includes(":openai:"))).toEqual([]);
    // A session `/new` created is an ordinary one: it leaves the index first, then its transcript goes.
    await expect.poll(() => transcripts(), { timeout: 10_000 }).toEqual(before);
    expect(fakes.model.requests).toHaveLength(0);
  });

  it("/new <message> with a user starts that user's session over and the completion answers the message there", async () => {
    const client = new OpenAI({ baseURL: `${fakes.gw.httpUrl}/v1`, apiKey: fakes.gw.token!, maxRetries: 0 });
    fakes.model.enqueue({ text: "before" });
    await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "old topic" }], user: "dave" });
    fakes.model.enqueue({ text: "fresh" });
    const completion = await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "/new new topic" }], user: "dave" });
    expect(completion.choices[0]!.message.content).toBe("fresh");
    const sent = fakes.model.requests
      .at(-1)!
      .body.messages.map((m: { role: string; content: unknown }) => `${m.role}:${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`);
    expect(sent.filter((line: string) => !line.startsWith("system:"))).toEqual(["user:new topic"]);
  });

  it("with a user, the session is kept as before", async () => {
    const client = new OpenAI({ baseURL: `${fakes.gw.httpUrl}/v1`, apiKey: fakes.gw.token!, maxRetries: 0 });
    fakes.model.enqueue({ text: "kept" });
    await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "hi" }], user: "bob" });
    expect(await sessionKeys()).toContain("agent:main:openai-user:bob");
  });
});

describe("/v1 paths that do not exist", () => {
  it("answer 404 in OpenAI's error shape", async () => {
    const res = await fetch(`${fakes.gw.httpUrl}/v1/embeddings/nope?x=1`, { headers: { authorization: `Bearer ${fakes.gw.token}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({ error: { message: "Unknown endpoint: GET /v1/embeddings/nope", type: "invalid_request_error", code: "unknown_url" } });
    const client = new OpenAI({ baseURL: `${fakes.gw.httpUrl}/v1`, apiKey: fakes.gw.token!, maxRetries: 0 });
    await expect(client.moderations.create({ model: "x", input: "y" })).rejects.toMatchObject({ status: 404, type: "invalid_request_error" });
    // Without the token nothing about the routes is told.
    expect((await fetch(`${fakes.gw.httpUrl}/v1/nope`)).status).toBe(401);
  });
});
