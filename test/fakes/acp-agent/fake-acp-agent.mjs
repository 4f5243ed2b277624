#!/usr/bin/env node
/**
 * A scripted ACP agent for tests: a real child process speaking ACP over stdio through the
 * official SDK's agent side (`agent()` + `ndJsonStream`), the way Claude Code, Codex and Gemini
 * CLI adapters do. How it differs from run to run is chosen in two places:
 *
 * Flags (the agent as a whole, like one real adapter differs from another):
 *   --variant claude|codex|zed-codex|gemini   permission option ids of that adapter (default claude)
 *   --no-load            does not advertise or serve session/load
 *   --store DIR          remembers its sessions in DIR, so a new process can session/load them
 *   --log FILE           appends one JSON line per thing it received or did (tests read it)
 *   --string-ids         its own requests carry UUID string ids, keys in another order
 *   --hang-initialize    never answers initialize
 *   --garbage-start      writes non-JSON lines before anything else
 *   --usage-in-response  the prompt response carries token usage
 *   --session-extras     session/new also returns modes, models and configOptions
 *   --ignore-stdin-end   keeps running when its stdin closes (an agent that must be killed)
 *
 * Directives in the prompt text (one turn):
 *   #echo              the reply is "echo: <prompt without directives>"
 *   #thought           a thought chunk first
 *   #tool              a tool_call (pending) then its tool_call_update (completed)
 *   #tool-update-only  only a final tool_call_update, never a tool_call
 *   #tool-title:TEXT   a tool_call titled TEXT, then its completion
 *   #permission        asks session/request_permission (after a tool_call) and says what it got
 *   #permission-first  asks before any tool_call
 *   #permission-read:PATH  asks for a read (kind "read", the path resolved against the cwd as its location)
 *   #read:PATH         fs/read_text_file, replies with the text or the error
 *   #write:PATH=TEXT   fs/write_text_file, replies "wrote" or the error
 *   #plan #usage #all-updates   those session/update kinds (all-updates: every kind)
 *   #ext               `_`-prefixed extension notification and request
 *   #late-title        a session_info_update after the prompt's response
 *   #garbage           a non-JSON line and a 10 MB line on stdout mid-turn
 *   #crash             one chunk, then exits with code 3
 *   #hang              never answers this prompt, not even after session/cancel
 *   #slow:MS           waits MS (cancellable: then stopReason "cancelled")
 *   #chunks:N          N message chunks
 *   #env               replies with the names of its environment variables
 *   #cwd               replies with the session's cwd
 *   #elicit            asks elicitation/create for a form (a choice, a number, a boolean, and
 *                      optional text) and replies with the action and what came back
 *   #elicit-url        asks elicitation/create for a URL step and replies with the action
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { agent, ndJsonStream, PROTOCOL_VERSION, RequestError } from "@agentclientprotocol/sdk";

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};

const VARIANTS = {
  claude: [["allow-always", "allow_always"], ["allow-once", "allow_once"], ["reject", "reject_once"]],
  codex: [["approved", "allow_once"], ["approved-for-session", "allow_always"], ["abort", "reject_once"]],
  "zed-codex": [["allow_once", "allow_once"], ["reject_once", "reject_once"]],
  gemini: [["proceed_always", "allow_always"], ["proceed_once", "allow_once"], ["cancel", "reject_once"]],
};
const variant = option("--variant") ?? "claude";
const permissionOptions = (VARIANTS[variant] ?? VARIANTS.claude).map(([optionId, kind]) => ({ optionId, kind, name: optionId }));
const canLoad = !flag("--no-load");
const storeDir = option("--store");
const logFile = option("--log");

function log(entry) {
  if (logFile) fs.appendFileSync(logFile, `${JSON.stringify({ pid: process.pid, ts: Date.now(), hr: performance.timeOrigin + performance.now(), ...entry })}\n`);
}

/** Sessions this agent knows: in memory, and in --store so a later process can load them. */
const sessions = new Map();
function remember(sessionId, cwd) {
  const session = { id: sessionId, cwd, cancelled: false, cancelWaiters: [] };
  sessions.set(sessionId, session);
  if (storeDir) {
    fs.mkdirSync(storeDir, { recursive: true });
    fs.writeFileSync(path.join(storeDir, `${sessionId}.json`), JSON.stringify({ cwd }));
  }
  return session;
}
function known(sessionId) {
  if (sessions.has(sessionId)) return sessions.get(sessionId);
  if (storeDir && /^[\w-]+$/.test(sessionId) && fs.existsSync(path.join(storeDir, `${sessionId}.json`))) {
    return remember(sessionId, JSON.parse(fs.readFileSync(path.join(storeDir, `${sessionId}.json`), "utf8")).cwd);
  }
  return undefined;
}

// ── stdio, with the id and key-order quirks some adapters have ───────────────────────────────
const stdoutWeb = Writable.toWeb(process.stdout);
const idsOut = new Map();
const output = flag("--string-ids")
  ? new WritableStream({
      async write(bytes) {
        const writer = stdoutWeb.getWriter();
        try {
          const text = new TextDecoder().decode(bytes);
          const out = text
            .split("\n")
            .filter(Boolean)
            .map((line) => {
              const msg = JSON.parse(line);
              if (msg.method === undefined || msg.id === undefined) return line;
              const id = randomUUID();
              idsOut.set(id, msg.id);
              return JSON.stringify({ params: msg.params, id, method: msg.method, jsonrpc: "2.0" });
            })
            .join("\n");
          await writer.write(new TextEncoder().encode(`${out}\n`));
        } finally {
          writer.releaseLock();
        }
      },
    })
  : stdoutWeb;
/** When the last bytes arrived on stdin: a request's arrival, apart from the time spent parsing it. */
let lastArrival = 0;
/**
 * The answer to `initialize` / `session/new` is logged (`responded`) once its bytes have been
 * handed to stdout, so the bench counts from the moment the gateway could read it: the SDK's
 * own work to validate and serialize the answer is this agent's, not the gateway's.
 */
let awaitingWrite;
const stdinWeb = Readable.toWeb(process.stdin).pipeThrough(
  new TransformStream({
    transform(chunk, controller) {
      lastArrival = performance.timeOrigin + performance.now();
      controller.enqueue(chunk);
    },
  }),
);
const input = flag("--string-ids")
  ? stdinWeb.pipeThrough(
      new TransformStream({
        buffer: "",
        transform(chunk, controller) {
          this.buffer = (this.buffer ?? "") + new TextDecoder().decode(chunk);
          const lines = this.buffer.split("\n");
          this.buffer = lines.pop();
          for (const line of lines) {
            if (!line.trim()) continue;
            const msg = JSON.parse(line);
            if (msg.method === undefined && idsOut.has(msg.id)) {
              const id = idsOut.get(msg.id);
              idsOut.delete(msg.id);
              controller.enqueue(new TextEncoder().encode(`${JSON.stringify({ ...msg, id })}\n`));
            } else controller.enqueue(new TextEncoder().encode(`${line}\n`));
          }
        },
      }),
    )
  : stdinWeb;

if (flag("--garbage-start")) process.stdout.write("Starting fake agent v0 (this is not JSON)\n");

// ── the agent ────────────────────────────────────────────────────────────────────────────────
const sleep = (ms, session) =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    session?.cancelWaiters.push(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });

const directives = (text) => [...text.matchAll(/#([\w-]+)(?::(\S+))?/g)].map((m) => ({ name: m[1], value: m[2] }));
const promptText = (prompt) => prompt.map((block) => (block.type === "text" ? block.text : "")).join("");

const app = agent({ name: "fake-acp-agent" })
  .onRequest("initialize", async ({ params }) => {
    log({ method: "initialize", arrivedAt: lastArrival, protocolVersion: params.protocolVersion, clientCapabilities: params.clientCapabilities, clientInfo: params.clientInfo });
    if (flag("--hang-initialize")) await new Promise(() => {});
    awaitingWrite = "initialize";
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: { loadSession: canLoad, promptCapabilities: { image: false, audio: false, embeddedContext: true } },
      agentInfo: { name: `fake-${variant}`, version: "0.0.1" },
      authMethods: [],
    };
  })
  .onRequest("session/new", ({ params }) => {
    const sessionId = `fake-${randomUUID()}`;
    remember(sessionId, params.cwd);
    log({ method: "session/new", arrivedAt: lastArrival, sessionId, cwd: params.cwd, mcpServers: params.mcpServers });
    awaitingWrite = "session/new";
    if (!flag("--session-extras")) return { sessionId };
    return {
      sessionId,
      modes: { currentModeId: "default", availableModes: [{ id: "default", name: "Default" }, { id: "plan", name: "Plan" }] },
      models: { currentModelId: "fake-large", availableModels: [{ modelId: "fake-large", name: "Fake Large" }] },
      configOptions: [{ id: "effort", name: "Effort", type: "select", currentValue: "medium", options: [{ value: "medium", name: "Medium" }] }],
    };
  })
  .onRequest("session/prompt", async ({ params, client }) => {
    const session = known(params.sessionId);
    if (!session) throw RequestError.invalidParams(undefined, `unknown session ${params.sessionId}`);
    session.cancelled = false;
    const text = promptText(params.prompt);
    log({ method: "session/prompt", arrivedAt: lastArrival, sessionId: params.sessionId, text });
    return runPrompt(session, text, client);
  })
  .onNotification("session/cancel", ({ params }) => {
    log({ method: "session/cancel", sessionId: params.sessionId });
    const session = sessions.get(params.sessionId);
    if (!session) return;
    session.cancelled = true;
    for (const wake of session.cancelWaiters.splice(0)) wake();
  });

if (canLoad) {
  app.onRequest("session/load", async ({ params, client }) => {
    const session = known(params.sessionId);
    log({ method: "session/load", sessionId: params.sessionId, found: Boolean(session) });
    if (!session) throw RequestError.resourceNotFound(params.sessionId);
    session.cwd = params.cwd;
    await client.notify("session/update", { sessionId: params.sessionId, update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: "(replayed history)" } } });
  });
}

async function runPrompt(session, text, client) {
  const update = (u) => client.notify("session/update", { sessionId: session.id, update: u });
  const say = (t) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } });
  const steps = directives(text);
  const has = (name) => steps.some((s) => s.name === name);
  const plain = text.replace(/#[\w-]+(?::\S+)?/g, "").trim();
  let reply = `Done: ${plain}`;

  if (has("ext")) {
    await client.notify("_auth/status_update", { status: "ok" });
    await client.request("_fake/ping", { n: 1 }).then(
      () => log({ ext: "answered" }),
      (err) => log({ ext: "refused", code: err.code }),
    );
  }
  if (has("thought") || has("all-updates")) await update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Let me think." } });
  if (has("plan") || has("all-updates")) {
    await update({ sessionUpdate: "plan", entries: [{ content: "Read the file", priority: "high", status: "in_progress" }, { content: "Refactor it", priority: "medium", status: "pending" }] });
  }
  if (has("all-updates")) {
    await update({ sessionUpdate: "available_commands_update", availableCommands: [{ name: "review", description: "Review the change" }] });
    await update({ sessionUpdate: "current_mode_update", currentModeId: "plan" });
    await update({ sessionUpdate: "config_option_update", configOptions: [{ id: "effort", name: "Effort", type: "select", currentValue: "high", options: [{ value: "high", name: "High" }] }] });
    await update({ sessionUpdate: "session_info_update", title: "Fake work" });
  }
  if (has("permission-first")) reply = await askPermission(session, client, "perm-first-1");
  if (has("tool") || has("permission") || has("all-updates")) {
    await update({ sessionUpdate: "tool_call", toolCallId: "call-1", title: "Edit src/utils.ts", kind: "edit", status: "pending" });
    if (has("permission")) reply = await askPermission(session, client, "call-1");
    await update({ sessionUpdate: "tool_call_update", toolCallId: "call-1", status: "completed", content: [{ type: "content", content: { type: "text", text: "edited" } }] });
  }
  for (const step of steps.filter((s) => s.name === "tool-title")) {
    await update({ sessionUpdate: "tool_call", toolCallId: "call-titled", title: step.value, kind: "execute", status: "pending" });
    await update({ sessionUpdate: "tool_call_update", toolCallId: "call-titled", status: "completed" });
  }
  if (has("tool-update-only")) await update({ sessionUpdate: "tool_call_update", toolCallId: "call-9", title: "Ran tests", status: "completed" });
  if (has("usage") || has("all-updates")) await update({ sessionUpdate: "usage_update", used: 1200, size: 200000 });

  for (const step of steps) {
    if (step.name === "read") {
      const target = path.resolve(session.cwd, step.value);
      reply = await client.request("fs/read_text_file", { sessionId: session.id, path: target }).then(
        (r) => `read: ${r.content}`,
        (err) => `read refused: ${err.message}`,
      );
    }
    if (step.name === "write") {
      const [file, ...rest] = step.value.split("=");
      const target = path.resolve(session.cwd, file);
      reply = await client.request("fs/write_text_file", { sessionId: session.id, path: target, content: rest.join("=") }).then(
        () => `wrote ${file}`,
        (err) => `write refused: ${err.message}`,
      );
    }
    if (step.name === "permission-read") {
      const target = path.resolve(session.cwd, step.value);
      reply = await askPermission(session, client, "read-1", { title: `Read ${step.value}`, kind: "read", locations: [{ path: target }] });
    }
    if (step.name === "slow") {
      if (await sleep(Number(step.value), session)) return { stopReason: "cancelled" };
    }
    if (step.name === "chunks") {
      for (let i = 0; i < Number(step.value); i++) await say(`c${i} `);
    }
  }
  if (has("garbage")) {
    // Written straight to stdout, each flushed before the SDK writes again.
    await new Promise((resolve) => process.stdout.write("panic: this line is not JSON\n", resolve));
    await new Promise((resolve) => process.stdout.write(`${"x".repeat(10 * 1024 * 1024)}\n`, resolve));
  }
  if (has("crash")) {
    await say("starting… ");
    log({ crash: true });
    process.exit(3);
  }
  if (has("hang")) {
    log({ hang: true });
    await new Promise(() => {});
  }
  if (session.cancelled) return { stopReason: "cancelled" };
  if (has("elicit")) {
    const response = await client.request("elicitation/create", { sessionId: session.id, mode: "form", message: "Deploy settings", requestedSchema: DEPLOY_FORM });
    log({ elicitation: response });
    reply = `elicit: ${response.action} ${JSON.stringify(response.content ?? response._meta ?? {})}`;
  }
  if (has("elicit-url")) {
    const response = await client.request("elicitation/create", { sessionId: session.id, mode: "url", message: "Sign in to the registry", url: "https://registry.example.com/device?code=AB12", elicitationId: "login-1" });
    reply = `elicit-url: ${response.action}`;
  }
  if (has("echo")) reply = `echo: ${plain}`;
  if (has("env")) reply = `env: ${Object.keys(process.env).sort().join(",")}`;
  if (has("cwd")) reply = `cwd: ${session.cwd}`;
  await say(reply);
  if (has("late-title")) setTimeout(() => void update({ sessionUpdate: "session_info_update", title: "Late title" }), 5);
  const response = { stopReason: "end_turn" };
  if (flag("--usage-in-response")) response.usage = { inputTokens: 120, outputTokens: 30, totalTokens: 150 };
  return response;
}

/** The form `#elicit` asks for: two rounds of questions (three fields, then the optional note). */
const DEPLOY_FORM = {
  type: "object",
  properties: {
    target: { type: "string", title: "Target", description: "Where to deploy", oneOf: [{ const: "stg", title: "Staging" }, { const: "prod", title: "Production" }] },
    replicas: { type: "integer", title: "Replicas", minimum: 1, maximum: 10 },
    confirm: { type: "boolean", title: "Confirm" },
    note: { type: "string", title: "Note" },
  },
  required: ["target", "replicas", "confirm"],
};

async function askPermission(session, client, toolCallId, call = { title: "Edit src/utils.ts", kind: "edit" }) {
  const response = await client.request("session/request_permission", {
    sessionId: session.id,
    toolCall: { toolCallId, status: "pending", ...call },
    options: permissionOptions,
  });
  log({ permission: response.outcome });
  if (response.outcome.outcome === "cancelled") return "permission: cancelled";
  const chosen = permissionOptions.find((o) => o.optionId === response.outcome.optionId);
  return `permission: ${response.outcome.optionId} (${chosen?.kind ?? "unknown option"})`;
}

const timedOutput = new WritableStream({
  async write(bytes) {
    const writer = output.getWriter();
    try {
      await writer.write(bytes);
    } finally {
      writer.releaseLock();
    }
    if (awaitingWrite && new TextDecoder().decode(bytes).includes('"result"')) {
      log({ responded: awaitingWrite });
      awaitingWrite = undefined;
    }
  },
});
const connection = app.connect(ndJsonStream(timedOutput, input));
log({ started: true, argv, processStartedAt: performance.timeOrigin });
if (flag("--ignore-stdin-end")) setInterval(() => {}, 1 << 30);
void connection.closed.then(() => {
  log({ closed: true });
  if (!flag("--ignore-stdin-end")) process.exit(0);
});
