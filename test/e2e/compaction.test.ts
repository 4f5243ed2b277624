import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CONTEXT_OVERFLOW_ERRORS, fakeSummaryReply, isSummaryRequest, lastUserText, type RecordedRequest } from "../fakes/model-server.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import type { Frame } from "../helpers/ws-client.js";

/**
 * Compaction through the real gateway: a 20,000-token window (compaction at 15,000, a kept tail
 * of 7,500), replies of ~3,000 tokens each, and the fake model's summarizer.
 */
const LONG_REPLY = "Long answer. ".repeat(920);

const fakes = useFakeModelGateway({
  operator: true,
  configure: (config) => {
    config.models.providers.fake.models = [
      { id: "fake-model", contextWindow: 20_000, maxTokens: 1024 },
      { id: "tiny-model", contextWindow: 12_000, maxTokens: 1024 },
      { id: "summarizer-model", contextWindow: 20_000, maxTokens: 1024 },
    ];
    config.agents.defaults.skipBootstrap = true;
    config.agents.entries = { main: {}, tiny: { model: "fake/tiny-model" } };
    config.agents.defaults.compaction = { notifyUser: true, model: "fake/summarizer-model", timeoutSeconds: 1 };
  },
});

const conversationReplies = (request: RecordedRequest) => (isSummaryRequest(request) ? fakeSummaryReply(request) : { text: LONG_REPLY });

async function turn(session: string, text: string, timeoutMs = 15_000): Promise<Frame> {
  const key = randomUUID();
  const ack = await fakes.sock.request("chat.send", { sessionKey: session, message: text, idempotencyKey: key });
  expect(ack.ok, JSON.stringify(ack.error)).toBe(true);
  return fakes.sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && ["final", "error"].includes(f.payload.state), timeoutMs);
}

/**
 * Threshold compactions run after the reply (their start event goes out in the same tick as the
 * final one): one round trip makes sure it arrived, then wait until each one started has ended.
 */
async function compactionsSettled(session: string): Promise<void> {
  await fakes.sock.request("sessions.describe", { key: session });
  await fakes.sock.waitFor(() => {
    const phases = compactionEvents(session).map((f) => f.payload.data.phase);
    return phases.filter((p) => p === "start").length === phases.filter((p) => p === "end").length;
  }, 15_000);
}

function compactionEvents(session: string): Frame[] {
  return fakes.sock.frames.filter((f) => f.event === "agent" && f.payload.sessionKey === session && f.payload.stream === "compaction");
}

async function sessionRow(session: string): Promise<Frame> {
  const res = await fakes.sock.request("sessions.describe", { key: session });
  return res.payload.session;
}

function transcriptLines(file: string): Record<string, any>[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Polls a condition the gateway's frames do not announce (what the fake model has received). */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const conversationRequests = () => fakes.model.requests.filter((r) => r.path.endsWith("/chat/completions") && !isSummaryRequest(r));
const sentTexts = (request: RecordedRequest) => JSON.stringify(request.body.messages);

describe("threshold compaction after a turn", () => {
  it("summarizes the older turns into one entry, keeps the recent tail and every identifier", async () => {
    const session = "agent:main:long-chat";
    fakes.model.setResponder(conversationReplies);
    let turns = 0;
    while (compactionEvents(session).length === 0 && turns < 10) {
      turns += 1;
      const done = await turn(session, `Question ${turns}: what about ticket TCK-${1000 + turns}?`);
      expect(done.payload.state).toBe("final");
      await compactionsSettled(session);
    }
    const end = await fakes.sock.waitFor((f) => f.event === "agent" && f.payload.sessionKey === session && f.payload.stream === "compaction" && f.payload.data.phase === "end");
    expect(end.payload.data).toMatchObject({ ok: true, reason: "threshold", willRetry: false });
    expect(end.payload.data.tokensAfter).toBeLessThan(end.payload.data.tokensBefore);
    expect(compactionEvents(session)[0]!.payload.data).toMatchObject({ phase: "start", reason: "threshold" });
    const notice = await fakes.sock.waitFor((f) => f.event === "chat" && f.payload.sessionKey === session && f.payload.state === "notice");
    expect(notice.payload).toMatchObject({ kind: "compaction" });
    expect(notice.payload.text).toContain("older messages were summarized");

    // compaction.model writes the summaries.
    expect(fakes.model.requests.filter(isSummaryRequest).every((r) => r.body.model === "summarizer-model")).toBe(true);
    const row = await sessionRow(session);
    expect(row.entry.compactionCount).toBe(1);
    const lines = transcriptLines(row.sessionFile);
    const compactions = lines.filter((l) => l.type === "compaction");
    expect(compactions).toHaveLength(1);
    expect(compactions[0]!.summary).toContain("TCK-1001");
    expect(lines.some((l) => l.id === compactions[0]!.firstKeptEntryId)).toBe(true);

    // The next turn sees the summary first and no longer the first question itself.
    fakes.model.reset();
    fakes.model.setResponder(conversationReplies);
    await turn(session, "And now?");
    const sent = conversationRequests()[0]!;
    const messages = sent.body.messages.filter((m: { role: string }) => m.role !== "system");
    expect(JSON.stringify(messages[0])).toContain("condensed");
    expect(JSON.stringify(messages[0])).toContain("TCK-1001");
    expect(sentTexts(sent)).not.toContain("Question 1:");
    expect(sentTexts(sent)).toContain(`Question ${turns}:`);
  });

  it("keeps the original history when the summarizer fails", async () => {
    const session = "agent:main:summarizer-down";
    fakes.model.setResponder((request) => (isSummaryRequest(request) ? { status: 500 } : { text: LONG_REPLY }));
    for (let i = 1; i <= 6; i += 1) expect((await turn(session, `Step ${i}`)).payload.state).toBe("final");
    await compactionsSettled(session);
    const failed = compactionEvents(session).filter((f) => f.payload.data.phase === "end");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((f) => f.payload.data.ok === false)).toBe(true);
    const row = await sessionRow(session);
    expect(row.entry.compactionCount).toBeUndefined();
    expect(transcriptLines(row.sessionFile).some((l) => l.type === "compaction")).toBe(false);
  });

  it("keeps the original history when the summary drops identifiers, after asking once more", async () => {
    const session = "agent:main:lossy-summary";
    fakes.model.setResponder((request) => (isSummaryRequest(request) ? fakeSummaryReply(request, { drop: true }) : { text: LONG_REPLY }));
    for (let i = 1; i <= 6; i += 1) await turn(session, `Order ORD-${7000 + i} is step ${i}`);
    await compactionsSettled(session);
    const ends = compactionEvents(session).filter((f) => f.payload.data.phase === "end");
    expect(ends.length).toBeGreaterThan(0);
    expect(ends[0]!.payload.data.error).toContain("identifier");
    const summaryRequests = fakes.model.requests.filter(isSummaryRequest);
    expect(lastUserText(summaryRequests[1]!)).toContain("Your previous attempt left out these identifiers");
    const row = await sessionRow(session);
    expect(transcriptLines(row.sessionFile).some((l) => l.type === "compaction")).toBe(false);
  });
});

describe("context-window guard", () => {
  it("refuses a model whose window is under 16,000 tokens, saying what to change", async () => {
    const done = await turn("agent:tiny:main", "hello");
    expect(done.payload.state).toBe("error");
    expect(done.payload.message.content[0].text).toContain("12000 tokens, below the minimum of 16000");
    expect(done.payload.message.content[0].text).toContain("contextWindowGuard.hardMinTokens");
    expect(done.payload.message.content[0].text).toContain('raise the contextWindow of "tiny-model" in models.providers.fake.models');
    expect(done.payload.message.content[0].text).not.toContain("contextTokens");
    expect(conversationRequests()).toHaveLength(0);
  });

  it("warns once about a window under 32,000 tokens and runs", async () => {
    await turn("agent:main:guard-a", "one");
    await turn("agent:main:guard-b", "two");
    await fakes.gw.waitForOutput(/small context window/);
    expect(fakes.gw.output().match(/small context window \(20000 tokens/g)).toHaveLength(1);
  });
});

describe("memory flush before compaction", () => {
  it("runs one silent turn that writes today's memory file, once per compaction cycle, before the summary", async () => {
    const session = "agent:main:flushing";
    const flushes: string[] = [];
    fakes.model.setResponder((request) => {
      if (isSummaryRequest(request)) return fakeSummaryReply(request);
      const messages: { role: string }[] = request.body.messages;
      if (messages.at(-1)?.role === "tool") return { text: "NO_REPLY" };
      const prompt = lastUserText(request);
      if (prompt.startsWith("Pre-compaction memory flush.")) {
        const file = /memory\/\d{4}-\d\d-\d\d\.md/.exec(prompt)![0];
        flushes.push(file);
        return { toolCalls: [{ name: "write", arguments: { path: file, content: "- The user tracks ticket TCK-4242.\n" } }] };
      }
      return { text: LONG_REPLY };
    });
    let turns = 0;
    while (compactionEvents(session).length === 0 && turns < 10) {
      turns += 1;
      await turn(session, `Ticket TCK-4242 update ${turns}`);
      await compactionsSettled(session);
    }
    expect(flushes).toHaveLength(1);
    const written = fs.readFileSync(`${fakes.gw.stateDir}/workspace/${flushes[0]}`, "utf8");
    expect(written).toContain("TCK-4242");
    // The flush came first, then the summary.
    const order = fakes.model.requests.map((r) => (isSummaryRequest(r) ? "summary" : lastUserText(r).startsWith("Pre-compaction") ? "flush" : "turn"));
    expect(order.indexOf("flush")).toBeLessThan(order.indexOf("summary"));
    // The flush's only way out is the workspace: no question to the user, no message or session tools.
    const toolNames = (r: (typeof fakes.model.requests)[number]) => (r.body.tools ?? []).map((t: { function?: { name: string } }) => t.function?.name);
    const flushTools = toolNames(fakes.model.requests.find((r) => lastUserText(r).startsWith("Pre-compaction"))!);
    expect(toolNames(fakes.model.requests.find((r) => lastUserText(r).startsWith("Ticket TCK-4242"))!)).toContain("ask_user");
    expect(flushTools).toContain("write");
    expect(flushTools).not.toContain("ask_user");
    expect(flushTools).not.toContain("sessions_spawn");
    // Nothing of it reached clients or the transcript.
    expect(JSON.stringify(fakes.sock.frames)).not.toContain("Pre-compaction memory flush");
    expect(JSON.stringify(fakes.sock.frames)).not.toContain("NO_REPLY");
    const row = await sessionRow(session);
    expect(fs.readFileSync(row.sessionFile, "utf8")).not.toContain("Pre-compaction memory flush");
    expect(row.entry).toMatchObject({ compactionCount: 1, memoryFlushCompactionCount: 0 });
  });
});

describe("manual compaction", () => {
  it("/compact in a chat summarizes now, with the user's instructions", async () => {
    const session = "agent:main:manual-chat";
    fakes.model.setResponder(conversationReplies);
    for (let i = 1; i <= 4; i += 1) await turn(session, `Point ${i}`);
    expect(compactionEvents(session)).toHaveLength(0);
    const res = await fakes.sock.request("chat.send", { sessionKey: session, message: "/compact focus on the decisions", idempotencyKey: randomUUID() }, 15_000);
    expect(res.payload).toMatchObject({ status: "started", command: "compact" });
    expect(res.payload.reply).toMatch(/^🧹 Compacted: \d+ older messages summarized/);
    const summary = fakes.model.requests.find(isSummaryRequest)!;
    expect(lastUserText(summary)).toContain("<instructions>\nfocus on the decisions\n</instructions>");
    expect((await sessionRow(session)).entry.compactionCount).toBe(1);
  });

  it("sessions.compact compacts over the WebSocket and says when there is nothing to do", async () => {
    const session = "agent:main:manual-rpc";
    fakes.model.setResponder(conversationReplies);
    await turn(session, "Only one turn so far");
    const nothing = await fakes.sock.request("sessions.compact", { key: session });
    expect(nothing.payload).toMatchObject({ ok: true, compacted: false });
    expect(nothing.payload.reason).toContain("shorter");
    for (let i = 2; i <= 4; i += 1) await turn(session, `Turn ${i}`);
    expect(compactionEvents(session)).toHaveLength(0);
    // A bare key with agentId names the agent's session, as in the other sessions.* methods.
    const done = await fakes.sock.request("sessions.compact", { key: "manual-rpc", agentId: "main" }, 15_000);
    expect(done.payload).toMatchObject({ ok: true, key: session, compacted: true, compactionCount: 1 });
    expect(done.payload.tokensAfter).toBeLessThan(done.payload.tokensBefore);
    const missing = await fakes.sock.request("sessions.compact", { key: "agent:main:no-such-session" });
    expect(missing.ok).toBe(false);
  });

  it("holds a message sent during a compaction and answers it after, with the new history", async () => {
    const session = "agent:main:during-compaction";
    fakes.model.setResponder(conversationReplies);
    for (let i = 1; i <= 4; i += 1) await turn(session, `Before ${i}`);
    fakes.model.setResponder((request) => (isSummaryRequest(request) ? { ...fakeSummaryReply(request), delayMs: 700 } : { text: "After compaction." }));
    const compacting = fakes.sock.request("sessions.compact", { key: session }, 15_000);
    await until(() => fakes.model.requests.some(isSummaryRequest));
    const done = await turn(session, "Sent while compacting");
    expect(done.payload.state).toBe("final");
    expect(done.payload.message.content[0].text).toBe("After compaction.");
    expect((await compacting).payload).toMatchObject({ compacted: true });
    expect(sentTexts(conversationRequests().at(-1)!)).toContain("condensed");
  });

  it("drops a summary whose session was reset (/new) while it was written", async () => {
    const session = "agent:main:reset-during-compaction";
    fakes.model.setResponder(conversationReplies);
    for (let i = 1; i <= 4; i += 1) await turn(session, `Old ${i}`);
    fakes.model.setResponder((request) => (isSummaryRequest(request) ? { ...fakeSummaryReply(request), delayMs: 700 } : { text: "ok" }));
    const compacting = fakes.sock.request("sessions.compact", { key: session }, 15_000);
    await until(() => fakes.model.requests.some(isSummaryRequest));
    const reset = await fakes.sock.request("chat.send", { sessionKey: session, message: "/new", idempotencyKey: randomUUID() });
    expect(reset.payload).toMatchObject({ reset: true });
    const result = (await compacting).payload;
    expect(result).toMatchObject({ compacted: false });
    expect(result.reason).toContain("reset");
    const row = await sessionRow(session);
    expect(transcriptLines(row.sessionFile).some((l) => l.type === "compaction")).toBe(false);
    expect(row.entry.compactionCount).toBeUndefined();
  });

  it("gives up on a summary slower than compaction.timeoutSeconds and keeps the history", async () => {
    const session = "agent:main:slow-summary";
    fakes.model.setResponder(conversationReplies);
    for (let i = 1; i <= 4; i += 1) await turn(session, `Slow ${i}`);
    fakes.model.setResponder((request) => (isSummaryRequest(request) ? { ...fakeSummaryReply(request), delayMs: 5_000 } : { text: "ok" }));
    const res = await fakes.sock.request("sessions.compact", { key: session }, 15_000);
    expect(res.payload).toMatchObject({ ok: true, compacted: false });
    expect(res.payload.reason).toContain("compaction.timeoutSeconds");
    expect(transcriptLines((await sessionRow(session)).sessionFile).some((l) => l.type === "compaction")).toBe(false);
    expect((await turn(session, "Still fine?")).payload.state).toBe("final");
  });
});

describe("context overflow from the provider", () => {
  // The gateway's fake provider speaks the OpenAI wire: every family, also those whose bodies lack OpenAI's `error` envelope.
  const families = Object.entries(CONTEXT_OVERFLOW_ERRORS);

  it.each(families)("%s: compacts and retries the turn once", async (family, overflow) => {
    const session = `agent:main:overflow-${family}`;
    fakes.model.setResponder(conversationReplies);
    for (let i = 1; i <= 3; i += 1) await turn(session, `Build-up ${i}`);
    let overflowed = false;
    fakes.model.setResponder((request) => {
      if (isSummaryRequest(request)) return fakeSummaryReply(request);
      if (!overflowed) {
        overflowed = true;
        return overflow;
      }
      return { text: "Answered after compaction." };
    });
    const done = await turn(session, "One more question");
    expect(done.payload.state).toBe("final");
    expect(done.payload.message.content[0].text).toBe("Answered after compaction.");
    const data = compactionEvents(session).map((f) => f.payload.data);
    expect(data).toEqual([{ phase: "start", reason: "overflow" }, expect.objectContaining({ phase: "end", reason: "overflow", ok: true, willRetry: true })]);
    // The retry carried the summary and the prompt once; the failed attempt left nothing in the transcript.
    const retry = conversationRequests().at(-1)!;
    expect(sentTexts(retry)).toContain("condensed");
    expect(sentTexts(retry).split("One more question").length).toBe(2);
    const lines = transcriptLines((await sessionRow(session)).sessionFile);
    expect(lines.filter((l) => l.type === "message" && l.message.role === "assistant" && l.message.stopReason === "error")).toHaveLength(0);
  });

  it("keeps the session and tells the user what to do when the retry overflows too", async () => {
    const session = "agent:main:overflow-stuck";
    fakes.model.setResponder(conversationReplies);
    for (let i = 1; i <= 3; i += 1) await turn(session, `Build-up ${i}`);
    const before = await sessionRow(session);
    fakes.model.setResponder((request) => (isSummaryRequest(request) ? fakeSummaryReply(request) : CONTEXT_OVERFLOW_ERRORS.openai));
    const earlier = conversationRequests().length;
    const failed = await turn(session, "This will not fit");
    expect(failed.payload).toMatchObject({ state: "error", errorKind: "context_length" });
    expect(failed.payload.errorMessage).toContain("/compact");
    expect(failed.payload.errorMessage).toContain("/new");
    expect(conversationRequests().length - earlier).toBe(2);
    fakes.model.setResponder(() => ({ text: "Back to normal." }));
    const next = await turn(session, "Try again");
    expect(next.payload.state).toBe("final");
    expect((await sessionRow(session)).sessionId).toBe(before.sessionId);
  });
});
