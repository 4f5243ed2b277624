import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StdioAcpRuntime } from "../../../src/acp/stdio/stdio-runtime.js";
import type { AcpRuntimeEvent, AcpRuntimeHandle } from "../../../src/acp/runtime/types.js";
import type { PermissionAnswer } from "../../../src/acp/stdio/permissions.js";
import { isProcessAlive } from "../../../src/infra/process-alive.js";
import { fakeAcpSettings, processesWithArgument, recordingLogger } from "../../helpers/acp-agent.js";

let dir: string;
let runtime: StdioAcpRuntime | undefined;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-rt-")));
});
afterEach(async () => {
  await runtime?.closeAll("test end");
  runtime = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

function makeRuntime(agents: Record<string, string[]>, acpx: Record<string, unknown> = {}, opts: { answer?: PermissionAnswer; env?: NodeJS.ProcessEnv } = {}) {
  const log = recordingLogger();
  const settings = fakeAcpSettings(agents, acpx);
  const asked: string[] = [];
  runtime = new StdioAcpRuntime({
    settings: () => settings,
    logger: log.logger,
    env: opts.env ?? process.env,
    ...(opts.answer ? { permissions: { ask: async (req) => (asked.push(req.title), opts.answer!) } } : {}),
  });
  return { runtime, log, asked };
}

async function turn(rt: StdioAcpRuntime, handle: AcpRuntimeHandle, text: string, signal?: AbortSignal, timeoutSeconds?: number): Promise<AcpRuntimeEvent[]> {
  const events: AcpRuntimeEvent[] = [];
  const timeout = timeoutSeconds ? { timeout: { seconds: timeoutSeconds, setting: "agents.defaults.subagents.runTimeoutSeconds" } } : {};
  for await (const event of rt.runTurn({ handle, text, mode: "prompt", requestId: "r1", ...(signal ? { signal } : {}), ...timeout })) events.push(event);
  return events;
}

const output = (events: AcpRuntimeEvent[]) =>
  events
    .filter((e) => e.type === "text_delta" && e.stream === "output")
    .map((e) => (e as { text: string }).text)
    .join("");
const logLines = (file: string) =>
  fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("stdio ACP runtime", () => {
  it("initializes with protocol 1 and only the capabilities it serves, and maps every session/update kind to a tagged event", async () => {
    const logFile = path.join(dir, "agent.log");
    const { runtime: rt } = makeRuntime({ fake: ["--log", logFile, "--session-extras"] }, { permissionMode: "approve-all" });
    const handle = await rt.ensureSession({ sessionKey: "agent:fake:acp:1", agent: "fake", mode: "oneshot", cwd: dir });
    expect(handle.backendSessionId).toMatch(/^fake-/);
    const events = await turn(rt, handle, "refactor #all-updates #tool-update-only");
    const init = logLines(logFile).find((l) => l.method === "initialize");
    expect(init.protocolVersion).toBe(1);
    expect(init.clientCapabilities).toMatchObject({ fs: { readTextFile: true, writeTextFile: true }, terminal: false });
    expect(init.clientCapabilities.elicitation).toBeUndefined();
    expect(events.map((e) => ("tag" in e ? e.tag : e.type))).toEqual([
      "agent_thought_chunk",
      "plan",
      "available_commands_update",
      "current_mode_update",
      "config_option_update",
      "session_info_update",
      "tool_call",
      "tool_call_update",
      "tool_call_update",
      "usage_update",
      "agent_message_chunk",
      "done",
    ]);
    expect(events[0]).toMatchObject({ type: "text_delta", stream: "thought", text: "Let me think." });
    expect(events[6]).toMatchObject({ type: "tool_call", toolCallId: "call-1", title: "Edit src/utils.ts", status: "pending" });
    expect(events[8]).toMatchObject({ type: "tool_call", toolCallId: "call-9", status: "completed" });
    expect(events[9]).toMatchObject({ type: "status", used: 1200, size: 200000 });
    expect(output(events)).toBe("Done: refactor");
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "end_turn" });
  });

  it.each([
    ["claude", "allow-once", "reject"],
    ["codex", "approved", "abort"],
    ["zed-codex", "allow_once", "reject_once"],
    ["gemini", "proceed_once", "cancel"],
  ])("picks permission options by kind for the %s adapter's ids", async (variant, allowId, rejectId) => {
    const allow = makeRuntime({ a: ["--variant", variant, "--string-ids"] }, { permissionMode: "approve-all" }).runtime;
    const h1 = await allow.ensureSession({ sessionKey: "k1", agent: "a", mode: "oneshot", cwd: dir });
    expect(output(await turn(allow, h1, "#permission"))).toBe(`permission: ${allowId} (allow_once)`);
    expect(output(await turn(allow, h1, "#permission-first"))).toBe(`permission: ${allowId} (allow_once)`);
    await allow.closeAll("next");
    const deny = makeRuntime({ a: ["--variant", variant] }, { permissionMode: "deny-all" }).runtime;
    const h2 = await deny.ensureSession({ sessionKey: "k2", agent: "a", mode: "oneshot", cwd: dir });
    expect(output(await turn(deny, h2, "#permission"))).toBe(`permission: ${rejectId} (reject_once)`);
  });

  it("approve-reads asks a person for an edit and takes an allow-always answer as the agent's allow_always option", async () => {
    const { runtime: rt, asked } = makeRuntime({ a: ["--variant", "codex"] }, {}, { answer: "allow-always" });
    const handle = await rt.ensureSession({ sessionKey: "k", agent: "a", mode: "oneshot", cwd: dir });
    expect(output(await turn(rt, handle, "#permission"))).toBe("permission: approved-for-session (allow_always)");
    expect(asked).toEqual(["Edit src/utils.ts"]);
  });

  it("with nobody to ask, nonInteractivePermissions fail ends the turn with a clear error, and deny rejects and goes on", async () => {
    const failing = makeRuntime({ a: [] }).runtime;
    const h1 = await failing.ensureSession({ sessionKey: "k", agent: "a", mode: "oneshot", cwd: dir });
    const events = await turn(failing, h1, "#permission");
    expect(events.filter((e) => e.type === "done" || e.type === "error")).toEqual([
      expect.objectContaining({
        type: "error",
        code: "ACP_PERMISSION_UNAVAILABLE",
        message: expect.stringContaining('nobody could answer it (no operator connected); nonInteractivePermissions is "fail"'),
      }),
    ]);
    await failing.closeAll("next");
    const denying = makeRuntime({ a: [] }, { nonInteractivePermissions: "deny" }).runtime;
    const h2 = await denying.ensureSession({ sessionKey: "k", agent: "a", mode: "oneshot", cwd: dir });
    expect(output(await turn(denying, h2, "#permission"))).toBe("permission: reject (reject_once)");
  });

  it("serves file reads and writes inside the session cwd only", async () => {
    fs.writeFileSync(path.join(dir, "a.txt"), "inside");
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "acp-outside-"));
    fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "link.txt"));
    const { runtime: rt } = makeRuntime({ a: [] });
    const handle = await rt.ensureSession({ sessionKey: "k", agent: "a", mode: "oneshot", cwd: dir });
    expect(output(await turn(rt, handle, "#read:a.txt"))).toBe("read: inside");
    expect(output(await turn(rt, handle, `#read:${path.join(outside, "secret.txt")}`))).toMatch(
      /^read refused: .*outside the workspace.*Only files inside the session's working directory/,
    );
    expect(output(await turn(rt, handle, "#read:link.txt"))).toMatch(/^read refused: .*symbolic link/);
    expect(output(await turn(rt, handle, "#write:out/b.txt=hello"))).toBe("wrote out/b.txt");
    expect(fs.readFileSync(path.join(dir, "out/b.txt"), "utf8")).toBe("hello");
    expect(output(await turn(rt, handle, "#write:../escape.txt=x"))).toMatch(/^write refused/);
    expect(fs.existsSync(path.join(dir, "../escape.txt"))).toBe(false);
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("skips non-JSON lines and a 10 MB line on the agent's stdout, logs them, and finishes the turn", async () => {
    const { runtime: rt, log } = makeRuntime({ a: ["--garbage-start"] });
    const handle = await rt.ensureSession({ sessionKey: "k", agent: "a", mode: "oneshot", cwd: dir });
    const events = await turn(rt, handle, "work #garbage");
    expect(output(events)).toBe("Done: work");
    const reasons = log.warnings().map((w) => w.reason);
    expect(reasons).toContain("not a JSON message");
    expect(reasons.some((r) => /a line of 10485760 bytes is over the 8388608-byte limit/.test(String(r)))).toBe(true);
    expect(output(await turn(rt, handle, "again #echo"))).toBe("echo: again");
  });

  it("an agent that exits mid-turn gives exactly one error event", async () => {
    const { runtime: rt } = makeRuntime({ a: [] });
    const handle = await rt.ensureSession({ sessionKey: "k", agent: "a", mode: "oneshot", cwd: dir });
    const events = await turn(rt, handle, "#crash");
    const ends = events.filter((e) => e.type === "done" || e.type === "error");
    expect(ends).toEqual([expect.objectContaining({ type: "error", code: "ACP_AGENT_EXITED", message: expect.stringContaining("exited with code 3 in the middle of a turn") })]);
    expect(rt.isAlive("k")).toBe(false);
    expect((await turn(rt, handle, "again"))[0]).toMatchObject({ type: "error", code: "ACP_SESSION_STALE" });
  });

  it("a prompt that never ends times out at the turn's own limit: session/cancel, then the process group is killed and reaped", async () => {
    const logFile = path.join(dir, "agent.log");
    const log = recordingLogger();
    const settings = fakeAcpSettings({ a: ["--log", logFile, "--ignore-stdin-end"] });
    runtime = new StdioAcpRuntime({ settings: () => settings, logger: log.logger });
    const rt = runtime;
    const handle = await rt.ensureSession({ sessionKey: "k", agent: "a", mode: "oneshot", cwd: dir });
    // The turn's limit is its own (a child's run timeout), not acpx timeoutSeconds, which bounds start-up.
    const events = await turn(rt, handle, "#hang", undefined, 1);
    expect(events.at(-1)).toMatchObject({
      type: "error",
      code: "ACP_TIMEOUT",
      message: expect.stringContaining("did not finish the turn within 1 s (agents.defaults.subagents.runTimeoutSeconds)"),
    });
    const last = events.at(-1)!;
    expect(last.type === "error" ? last.message : "").toContain("its process killed");
    expect(logLines(logFile).some((l) => l.method === "session/cancel")).toBe(true);
    expect(isProcessAlive(handle.pid!)).toBe(false);
  });

  it("an agent that never answers initialize times out and leaves no process", async () => {
    const { runtime: rt } = makeRuntime({ a: ["--hang-initialize", "--ignore-stdin-end", "--marker", dir] }, { timeoutSeconds: 1 });
    await expect(rt.ensureSession({ sessionKey: "k", agent: "a", mode: "oneshot", cwd: dir })).rejects.toMatchObject({
      code: "ACP_TIMEOUT",
      message: expect.stringContaining("did not answer initialize within 1 s"),
    });
    expect(processesWithArgument(dir)).toEqual([]);
  });

  it("a missing command is named, with the install hint of a known adapter", async () => {
    const log = recordingLogger();
    const settings = fakeAcpSettings({});
    settings.agents.claude = { ...settings.agents.claude!, command: "claude-agent-acp-not-installed" };
    runtime = new StdioAcpRuntime({ settings: () => settings, logger: log.logger });
    await expect(runtime.ensureSession({ sessionKey: "k", agent: "claude", mode: "oneshot", cwd: dir })).rejects.toMatchObject({
      code: "ACP_COMMAND_NOT_FOUND",
      message: "ACP agent `claude`: command not found (`claude-agent-acp-not-installed` is not on PATH). Install it: npm install -g @zed-industries/claude-agent-acp",
    });
  });

  it("starts the agent with a scrubbed environment plus what its config gives it", async () => {
    const env = { ...process.env, OPENCLAW_GATEWAY_TOKEN: "gw-secret", ANTHROPIC_API_KEY: "sk-ant", OPENAI_API_KEY: "sk-oai" };
    const settings = fakeAcpSettings({ a: [] });
    settings.agents.a!.env = { ANTHROPIC_API_KEY: "sk-for-claude" };
    const log = recordingLogger();
    runtime = new StdioAcpRuntime({ settings: () => settings, logger: log.logger, env });
    const handle = await runtime.ensureSession({ sessionKey: "k", agent: "a", mode: "oneshot", cwd: dir });
    const names = output(await turn(runtime, handle, "#env"))
      .replace("env: ", "")
      .split(",");
    expect(names).toContain("PATH");
    expect(names).toContain("ANTHROPIC_API_KEY");
    expect(names).not.toContain("OPENCLAW_GATEWAY_TOKEN");
    expect(names).not.toContain("OPENAI_API_KEY");
  });

  it("resumes a session with session/load when the agent advertises it, and refuses when it does not", async () => {
    const store = path.join(dir, "store");
    const { runtime: rt } = makeRuntime({ a: ["--store", store], old: ["--no-load", "--store", store] });
    const first = await rt.ensureSession({ sessionKey: "k1", agent: "a", mode: "persistent", cwd: dir });
    await rt.close({ handle: first, reason: "restart" });
    const resumed = await rt.ensureSession({ sessionKey: "k1", agent: "a", mode: "persistent", cwd: dir, resumeSessionId: first.backendSessionId });
    expect(resumed.backendSessionId).toBe(first.backendSessionId);
    expect(resumed.pid).not.toBe(first.pid);
    expect(output(await turn(rt, resumed, "still here #echo"))).toBe("echo: still here");
    await expect(rt.ensureSession({ sessionKey: "k2", agent: "a", mode: "persistent", cwd: dir, resumeSessionId: "fake-unknown" })).rejects.toMatchObject({
      code: "ACP_RESUME_FAILED",
    });
    await expect(rt.ensureSession({ sessionKey: "k3", agent: "old", mode: "persistent", cwd: dir, resumeSessionId: first.backendSessionId })).rejects.toMatchObject({
      code: "ACP_RESUME_UNSUPPORTED",
      message: "ACP agent `old` cannot resume sessions (it does not advertise session/load).",
    });
  });

  it("ignores extension methods politely, keeps updates that arrive after the answer, and reads usage from the prompt response", async () => {
    const logFile = path.join(dir, "agent.log");
    const { runtime: rt } = makeRuntime({ a: ["--usage-in-response", "--log", logFile] });
    const handle = await rt.ensureSession({ sessionKey: "k", agent: "a", mode: "persistent", cwd: dir });
    const events = await turn(rt, handle, "x #ext #late-title");
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "end_turn", usage: { inputTokens: 120, outputTokens: 30 } });
    expect(logLines(logFile).find((l) => l.ext)).toMatchObject({ ext: "refused", code: -32601 });
    for (let i = 0; i < 200 && !(await rt.getStatus({ handle })).summary.includes("Late title"); i++) await new Promise((r) => setTimeout(r, 10));
    expect((await rt.getStatus({ handle })).summary).toBe("a: idle — Late title");
  });

  it("an aborted turn sends session/cancel and ends with stopReason cancelled", async () => {
    const { runtime: rt } = makeRuntime({ a: [] });
    const handle = await rt.ensureSession({ sessionKey: "k", agent: "a", mode: "persistent", cwd: dir });
    const controller = new AbortController();
    const events: AcpRuntimeEvent[] = [];
    // Aborted once the agent is visibly working on the prompt.
    for await (const event of rt.runTurn({ handle, text: "#thought #slow:60000", mode: "prompt", requestId: "r", signal: controller.signal })) {
      events.push(event);
      controller.abort();
    }
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "cancelled" });
    expect(output(await turn(rt, handle, "next #echo"))).toBe("echo: next");
  });

  it("doctor reports each agent: protocol version when it answers, the install hint when it is missing", async () => {
    const settings = fakeAcpSettings({ fake: [] }, {}, { allowedAgents: ["fake", "codex"] });
    settings.agents.codex = { ...settings.agents.codex!, command: "codex-acp-not-installed" };
    runtime = new StdioAcpRuntime({ settings: () => settings, logger: recordingLogger().logger });
    const report = await runtime.doctor();
    expect(report.ok).toBe(false);
    expect(report.agents[0]).toMatchObject({ agent: "fake", ok: true, protocolVersion: 1 });
    expect(report.agents[1]).toMatchObject({ agent: "codex", ok: false, code: "ACP_COMMAND_NOT_FOUND", installCommand: "npm install -g @zed-industries/codex-acp" });
  });
});
