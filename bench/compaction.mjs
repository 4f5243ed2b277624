// Long sessions: a 500-turn conversation through the real gateway against a model with an
// 8,000-token window (every turn answered, compactions happening, no request over the window),
// and the in-process cost of one compaction's bookkeeping on a 2,000-message session.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createChatClient } from "./lib/chat-client.mjs";
import { freePort, HOST, makeTempDir, REPO_ROOT, spawnGateway } from "./lib/spawn-gateway.mjs";
import { now, round } from "./lib/util.mjs";

const dist = (p) => import(pathToFileURL(path.join(REPO_ROOT, "dist", "src", p)).href);
const TOKEN = "bench-compaction";
const WINDOW = 8_000;
const SUMMARY_MARKER = "You maintain the running summary of a conversation";

/** How a provider would count a chat-completions request: every character at four per token, plus max_tokens. */
function requestTokens(body) {
  return Math.ceil(JSON.stringify({ messages: body.messages, tools: body.tools ?? [] }).length / 4) + Number(body.max_tokens ?? body.max_completion_tokens ?? 0);
}

/**
 * An OpenAI-compatible model with a hard window: a request over it gets OpenAI's overflow error;
 * a summary request gets a summary keeping every listed identifier; anything else a ~200-token answer.
 */
function startWindowedModel() {
  const stats = { requests: 0, summaries: 0, overflows: 0, maxRequestTokens: 0 };
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const body = JSON.parse(text || "{}");
      stats.requests += 1;
      const tokens = requestTokens(body);
      stats.maxRequestTokens = Math.max(stats.maxRequestTokens, tokens);
      if (tokens > WINDOW) {
        stats.overflows += 1;
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: {
              message: `This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in ${tokens} tokens.`,
              type: "invalid_request_error",
              code: "context_length_exceeded",
            },
          }),
        );
        return;
      }
      const system = body.messages?.[0]?.role === "system" ? String(body.messages[0].content) : "";
      const last = body.messages.at(-1);
      let content;
      if (system.startsWith(SUMMARY_MARKER)) {
        stats.summaries += 1;
        const ids = /<identifiers>\n([\s\S]*?)\n<\/identifiers>/.exec(String(last.content))?.[1] ?? "";
        content = `## Active tasks\nA long chat about numbered topics.\n## Facts for later\n${ids.split("\n").join(" ")}`;
      } else {
        content = `Noted: ${String(last.content).slice(0, 40)}. ${"Some detail about it. ".repeat(36)}`;
      }
      const chunk = (choices) => `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk([{ index: 0, delta: { role: "assistant", content }, finish_reason: null }]));
      res.write(chunk([{ index: 0, delta: {}, finish_reason: "stop" }]));
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => server.listen(0, HOST, () => resolve({ server, port: server.address().port, stats })));
}

export async function measureLongConversation({ turns = 500 } = {}) {
  const model = await startWindowedModel();
  const stateDir = makeTempDir("compaction");
  const port = await freePort();
  fs.writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({
      gateway: { auth: { token: TOKEN }, http: { endpoints: { chatCompletions: { enabled: true } } } },
      agents: {
        defaults: {
          workspace: path.join(stateDir, "workspace"),
          model: "small/small-model",
          skipBootstrap: true,
          // An 8,000-token model is below the guard's default floor: lowered on purpose here.
          contextWindowGuard: { hardMinTokens: 4_000, warnBelowTokens: 4_000 },
        },
      },
      models: {
        providers: {
          small: {
            baseUrl: `http://${HOST}:${model.port}/v1`,
            apiKey: "sk-bench",
            api: "openai-completions",
            models: [{ id: "small-model", contextWindow: WINDOW, maxTokens: 512 }],
          },
        },
      },
    }),
  );
  const gw = spawnGateway({ label: "compaction", stateDir, port, token: TOKEN });
  const chat = createChatClient({ host: HOST, token: TOKEN, maxSockets: 4 });
  try {
    await gw.waitForReady(10_000, "compaction gateway: spawn → /readyz 200");
    let answered = 0;
    const started = now();
    for (let i = 1; i <= turns; i += 1) {
      const reply = await chat(port, "long-session", `Topic ${i}: please remember reference REF-${10_000 + i} for later.`);
      if (reply.choices?.[0]?.message?.content) answered += 1;
    }
    const seconds = (now() - started) / 1000;
    const index = JSON.parse(fs.readFileSync(path.join(stateDir, "agents", "main", "sessions", "sessions.json"), "utf8"));
    const entry = Object.values(index).find((e) => String(e.sessionKey).includes("long-session"));
    return {
      turns,
      answered,
      seconds: round(seconds, 1),
      compactions: entry?.compactionCount ?? 0,
      summaryRequests: model.stats.summaries,
      overflowErrors: model.stats.overflows,
      maxRequestTokens: model.stats.maxRequestTokens,
      windowTokens: WINDOW,
    };
  } finally {
    chat.close();
    await gw.stop(5000, "compaction gateway: SIGTERM → exit").catch(() => {});
    await gw.dispose();
    model.server.close();
  }
}

/**
 * One compaction's bookkeeping on a 2,000-message session whose history the gateway holds (its
 * ConversationWindow): the plan from the window, the identifiers to guard and their check, the
 * entry, its append (with fsync) and the window update — what compactSession and the compactor
 * do besides the summarizer call. The whole compaction with an instant in-process summarizer
 * (so including the summary request's text, ~500 KB here) is reported beside it.
 */
export async function measureCompactionBookkeeping({ messages = 2_000, runs = 20 } = {}) {
  const { SessionStore } = await dist("sessions/store/index.js");
  const { compactSession } = await dist("agents/compaction/compact-session.js");
  const { compactionSummaryMessage } = await dist("sessions/history/index.js");
  const { compactionEntry, guardedIdentifiers, missingIdentifiers, planCompaction } = await dist("sessions/compaction/index.js");
  const { ConversationWindow } = await dist("conversations/conversation-window.js");
  const summaryFor = (ids) => `## Active tasks\nsummary\n## Facts for later\n${ids.join(" ")}`;
  const instantSummary = async function* (request) {
    const text = summaryFor((/<identifiers>\n([\s\S]*?)\n<\/identifiers>/.exec(request.messages[0].content)?.[1] ?? "").split("\n"));
    yield { type: "text_delta", delta: text };
    yield { type: "done", stopReason: "stop", message: { role: "assistant", content: [{ type: "text", text }], timestamp: 0 } };
  };
  const model = { ref: "x/y", provider: "x", id: "y", api: "openai-completions", contextWindow: 200_000, maxTokens: 4096, reasoning: false, input: ["text"] };
  const stateDir = makeTempDir("compaction-bookkeeping");
  const store = new SessionStore(stateDir);
  const key = "agent:main:bookkeeping";
  store.ensure(key);
  const batch = [];
  for (let i = 0; i < messages / 2; i += 1) {
    batch.push({ role: "user", content: `Message ${i} about item ITEM-${i} with some ordinary words to make it a realistic size.`, timestamp: i, idempotencyKey: `k${i}` });
    batch.push({ role: "assistant", content: [{ type: "text", text: `Answer ${i}: ${"a sentence of reply text. ".repeat(20)}` }], timestamp: i, answers: [`k${i}`] });
  }
  const written = store.appendMessages(key, null, batch);
  // The gateway's cached history of the session (built once per session, not per compaction).
  const cachedWindow = () =>
    new ConversationWindow(
      written.map((e) => e.message),
      undefined,
      written.map((e) => e.id),
    );
  const bookkeeping = [];
  const appends = [];
  const whole = [];
  let kept = 0;
  for (let r = 0; r < runs + 3; r += 1) {
    let window = cachedWindow();
    let t = now();
    const input = window.compactionInput();
    const plan = planCompaction(input.messages, { keepRecentTokens: 20_000, minRecentTurns: 3 });
    const summarized = plan.summarize.map((m) => m.message);
    const ids = guardedIdentifiers(summarized, input.previousSummary);
    const summary = summaryFor(ids);
    if (missingIdentifiers(summary, ids).length > 0) throw new Error("bookkeeping bench: identifiers lost");
    const entry = compactionEntry({
      summary,
      firstKeptEntryId: plan.firstKeptEntryId,
      tokensBefore: input.tokensBefore,
      tokensAfter: plan.keptTokens,
      reason: "manual",
      summarizedMessages: summarized.length,
      model: model.ref,
    });
    const a = now();
    store.appendEntries(key, null, [entry]);
    if (r >= 3) appends.push(now() - a);
    window.applyCompaction(plan.firstKeptEntryId, { message: compactionSummaryMessage({ summary, timestamp: 0 }), text: summary });
    if (r >= 3) bookkeeping.push(now() - t);
    kept = window.size;

    window = cachedWindow();
    t = now();
    const outcome = await compactSession({
      source: window.compactionInput(),
      reason: "manual",
      keepRecentTokens: 20_000,
      summaryMaxTokens: 4_096,
      unfinishedRunIds: new Set(),
      streamModel: instantSummary,
      model,
      signal: new AbortController().signal,
    });
    if (!outcome.ok) throw new Error(`bookkeeping bench: ${outcome.reason}`);
    store.appendEntries(key, null, [outcome.entry]);
    window.applyCompaction(outcome.entry.firstKeptEntryId, { message: compactionSummaryMessage({ summary: outcome.entry.summary, timestamp: 0 }), text: outcome.entry.summary });
    if (r >= 3) whole.push(now() - t);
  }
  store.close();
  const stats = (samples) => {
    samples.sort((a, b) => a - b);
    return { p50: round(samples[Math.floor(samples.length / 2)], 2), min: round(samples[0], 2), p95: round(samples[Math.floor(samples.length * 0.95)], 2) };
  };
  return { messages, runs, keptMessages: kept, bookkeepingMs: stats(bookkeeping), ofWhichAppendWithFsyncMs: stats(appends), withInstantSummarizerMs: stats(whole) };
}
