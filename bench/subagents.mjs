// Sub-agents through a spawned gateway whose model answers at once: the overhead from a spawn
// being accepted to its announcement reaching the parent's model, and 100 children at once
// (time until every one was announced, RSS before and after).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { freePort, HOST, makeTempDir, spawnGateway } from "./lib/spawn-gateway.mjs";
import { MiB, now, percentile, round, sleep, withTimeout } from "./lib/util.mjs";
import { createChatClient } from "./lib/chat-client.mjs";

const TOKEN = "bench-subagents";
const BEGIN = "<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>";

const textOf = (content) => (typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => p.text ?? "").join("") : "");

/**
 * An OpenAI-compatible endpoint that plays parent and children: `spawn <n> <label>` makes n
 * sessions_spawn calls, a child answers "done", an announcement is noted. It records when each
 * parent learned its spawn was accepted and when each child's announcement reached the model.
 */
function startScriptedModel() {
  const acceptedAt = new Map();
  const announcedAt = new Map();
  const waiters = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const parsed = JSON.parse(body || "{}");
      const messages = parsed.messages ?? [];
      const system = textOf(messages[0]?.content);
      const last = messages.at(-1) ?? {};
      const lastText = textOf(last.content);
      let reply = { text: "ok" };
      if (system.includes("## Subagent Context")) reply = { text: "done" };
      else if (last.role === "user" && lastText.includes(BEGIN)) {
        const t = now();
        for (const [, label] of lastText.matchAll(/^task: (\S+)$/gm)) announcedAt.set(label, t);
        for (const wake of waiters.splice(0)) wake();
        reply = { text: "noted" };
      } else if (last.role === "tool") {
        const request = messages.findLast((m) => m.role === "user");
        const [, , label] = /^spawn (\d+) (\S+)$/.exec(textOf(request?.content)) ?? [];
        if (label) acceptedAt.set(label, now());
        reply = { text: "spawned" };
      } else if (last.role === "user") {
        const match = /^spawn (\d+) (\S+)$/.exec(lastText);
        if (match) {
          const count = Number(match[1]);
          const calls = Array.from({ length: count }, (_, i) => ({ name: "sessions_spawn", args: { task: "answer done", label: count === 1 ? match[2] : `${match[2]}-${i}` } }));
          reply = { toolCalls: calls };
        }
      }
      writeStream(res, reply);
    });
  });
  const waitFor = (predicate, ms, step) =>
    withTimeout(
      (async () => {
        while (!predicate()) await new Promise((resolve) => waiters.push(resolve));
      })(),
      ms,
      step,
    );
  return new Promise((resolve) => server.listen(0, HOST, () => resolve({ server, port: server.address().port, acceptedAt, announcedAt, waitFor })));
}

function writeStream(res, reply) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (delta, finish = null) =>
    `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  if (reply.toolCalls) {
    res.write(
      chunk({
        role: "assistant",
        content: null,
        tool_calls: reply.toolCalls.map((c, index) => ({ index, id: `call_${index}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args) } })),
      }),
    );
    res.write(chunk({}, "tool_calls"));
  } else {
    res.write(chunk({ role: "assistant", content: reply.text }));
    res.write(chunk({}, "stop"));
  }
  res.write(
    `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } })}\n\n`,
  );
  res.end("data: [DONE]\n\n");
}

const chat = createChatClient({ host: HOST, token: TOKEN });

export async function measureSubagents({ samples = 20, children = 100 } = {}) {
  const model = await startScriptedModel();
  const stateDir = makeTempDir("subagents");
  const port = await freePort();
  fs.writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({
      gateway: { auth: { token: TOKEN }, http: { endpoints: { chatCompletions: { enabled: true } } } },
      agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: "fake/fake-model", subagents: { maxChildrenPerAgent: children } } },
      models: { providers: { fake: { baseUrl: `http://${HOST}:${model.port}/v1`, apiKey: "sk-bench", api: "openai-completions" } } },
      // OpenClaw offers the browser tool by default wherever Chromium is installed; the bench measures the turn without it.
      browser: { enabled: false },
    }),
  );
  const gw = spawnGateway({ label: "subagents", stateDir, port });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await chat(port, "warm-up", "hi");
        break;
      } catch (err) {
        if (attempt > 2000) throw err;
        await sleep(2);
      }
    }
    // Spawn accepted (the parent's model sees the tool result) → the announcement reaches the parent's model.
    const overhead = [];
    for (let i = 0; i < samples; i++) {
      const label = `one-${i}`;
      await chat(port, `overhead-${i}`, `spawn 1 ${label}`);
      await model.waitFor(() => model.announcedAt.has(label), 10_000, `subagents: announcement of ${label}`);
      overhead.push(model.announcedAt.get(label) - model.acceptedAt.get(label));
    }

    await sleep(500);
    const rssBeforeMiB = gw.rssBytes("subagents: rss before") / MiB;
    const startedAt = now();
    await chat(port, "fan-out", `spawn ${children} fan`);
    const spawnedAllMs = now() - startedAt;
    const labels = Array.from({ length: children }, (_, i) => `fan-${i}`);
    await model.waitFor(() => labels.every((l) => model.announcedAt.has(l)), 60_000, `subagents: ${children} announcements`);
    const allAnnouncedMs = now() - startedAt;
    await sleep(1_000);
    const rssAfterMiB = gw.rssBytes("subagents: rss after") / MiB;
    return {
      spawnToAnnounceMs: { p50: round(percentile(overhead, 50), 1), p95: round(percentile(overhead, 95), 1), samples: overhead.length },
      concurrentChildren: {
        children,
        spawnedAllMs: round(spawnedAllMs, 0),
        allAnnouncedMs: round(allAnnouncedMs, 0),
        rssBeforeMiB: round(rssBeforeMiB, 1),
        rssAfterMiB: round(rssAfterMiB, 1),
        rssGrowthMiB: round(rssAfterMiB - rssBeforeMiB, 1),
      },
    };
  } finally {
    await gw.stop(5000, "subagents: SIGTERM").catch(() => {});
    await gw.dispose();
    model.server.close();
    chat.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureSubagents(), null, 2));
}
