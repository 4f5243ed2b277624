import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * OpenClaw's own CLI (2026.9.6 from npm) against this gateway, for the operator commands about
 * what runs here (openclaw-cli-wire.test.ts has the conversation and cron ones): each test sends
 * the request the real CLI sent for one command (captured through a WebSocket proxy) and checks
 * the fields that CLI reads from the answer.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let stateDir: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  stateDir = makeTempDir("openclaw-cli-wire-admin-");
  const hooksDir = path.join(stateDir, "workspace", "hooks");
  fs.mkdirSync(path.join(hooksDir, "ready-hook"), { recursive: true });
  fs.writeFileSync(
    path.join(hooksDir, "ready-hook", "HOOK.md"),
    '---\nname: ready-hook\ndescription: Runs at start.\nmetadata:\n  openclaw:\n    emoji: "🪝"\n    events: ["gateway:startup", "gateway:teleport"]\n---\n',
  );
  fs.writeFileSync(path.join(hooksDir, "ready-hook", "handler.js"), "export default async function () {}\n");
  fs.mkdirSync(path.join(hooksDir, "broken-hook"), { recursive: true });
  fs.writeFileSync(
    path.join(hooksDir, "broken-hook", "HOOK.md"),
    '---\nname: broken-hook\ndescription: Has no handler.\nmetadata:\n  openclaw:\n    events: ["command:new"]\n---\n',
  );
  const hooks = { internal: { entries: { "ready-hook": { enabled: true }, "broken-hook": { enabled: true } } } };
  const tools = { exec: { security: "allowlist", ask: "on-miss", allowlist: ["git", "/usr/bin/*"] } };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { hooks, tools }) } });
  ({ sock } = await openOperator(gw.url, gw.token, { scopes: ["operator.admin"] }));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

describe("openclaw nodes list / status", () => {
  it("node.pair.list and node.list (the CLI's requests) answer that no node is paired, pending or known", async () => {
    const pairing = await sock.request("node.pair.list", {});
    expect(pairing.ok, JSON.stringify(pairing.error)).toBe(true);
    expect(pairing.payload).toEqual({ pending: [], paired: [] });
    const known = await sock.request("node.list", {});
    expect(known.ok, JSON.stringify(known.error)).toBe(true);
    expect(known.payload).toEqual({ ts: expect.any(Number), nodes: [] });
  });

  it("the methods that act on a node refuse, saying nodes are not supported here", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["node.pair.approve", { requestId: "r1" }],
      ["node.pair.reject", { requestId: "r1" }],
      ["node.pair.remove", { nodeId: "n1" }],
      ["node.rename", { nodeId: "n1", displayName: "x" }],
      ["node.describe", { nodeId: "n1" }],
      ["node.invoke", { nodeId: "n1", command: "system.which", params: { bins: ["uname"] }, idempotencyKey: randomUUID() }],
    ];
    for (const [method, params] of calls) {
      const res = await sock.request(method, params);
      expect(res.ok, method).toBe(false);
      expect(res.error.code, method).toBe("INVALID_REQUEST");
      expect(res.error.message, method).toContain("nodes are not supported by this gateway");
    }
  });
});

describe("openclaw hooks list", () => {
  it("hooks.status (the CLI's request) reports every hook with its source and whether it runs here, and why not", async () => {
    const res = await sock.request("hooks.status", { agentId: "main" });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(res.payload.workspaceDir).toBe(path.join(stateDir, "workspace"));
    expect(res.payload.managedHooksDir).toBe(path.join(stateDir, "hooks"));
    const hooks = res.payload.hooks as Record<string, any>[];
    const byName = (name: string) => hooks.find((h) => h.name === name);
    const none = { bins: [], anyBins: [], env: [], config: [], os: [] };
    expect(byName("ready-hook")).toMatchObject({
      description: "Runs at start.",
      source: "openclaw-workspace",
      hookKey: "ready-hook",
      emoji: "🪝",
      filePath: path.join(stateDir, "workspace", "hooks", "ready-hook", "HOOK.md"),
      handlerPath: path.join(stateDir, "workspace", "hooks", "ready-hook", "handler.js"),
      events: ["gateway:startup", "gateway:teleport"],
      unknownEvents: ["gateway:teleport"],
      enabledByConfig: true,
      requirementsSatisfied: true,
      loadable: true,
      managedByPlugin: false,
      requirements: none,
      missing: none,
    });
    expect(byName("ready-hook")).not.toHaveProperty("blockedReason");
    // Enabled, but it cannot run: the reason is the gateway's own.
    expect(byName("broken-hook")).toMatchObject({ enabledByConfig: true, loadable: false, handlerPath: "", blockedReason: expect.stringContaining("no handler.js") });
    // The bundled hooks are listed, off until enabled.
    expect(byName("session-memory")).toMatchObject({
      source: "openclaw-bundled",
      enabledByConfig: false,
      loadable: false,
      blockedReason: expect.stringContaining("hooks.internal.entries.session-memory.enabled"),
    });
  });

  it("an unknown agent is refused by name", async () => {
    const res = await sock.request("hooks.status", { agentId: "nobody" });
    expect(res.ok).toBe(false);
    expect(res.error.message).toContain("nobody");
  });
});

describe("openclaw approvals get --gateway", () => {
  it("exec.approvals.get (the CLI's request) answers the exec policy tools.exec sets, in the approvals-file shape", async () => {
    const res = await sock.request("exec.approvals.get", {});
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(res.payload).toEqual({
      path: path.join(stateDir, "openclaw.json"),
      exists: true,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      file: {
        version: 1,
        defaults: { security: "allowlist", ask: "on-miss", askFallback: "deny" },
        agents: { "*": { allowlist: [{ pattern: "git" }, { pattern: "/usr/bin/*" }] } },
      },
    });
  });

  it("exec.approvals.set (what approvals set and approvals allowlist add|remove send) refuses a file that changes the policy or adds an entry, naming the config key, and changes nothing", async () => {
    const before = (await sock.request("exec.approvals.get", {})).payload;
    const policy = await sock.request("exec.approvals.set", { file: { ...before.file, defaults: { security: "full" } }, baseHash: before.hash });
    expect(policy.ok).toBe(false);
    expect(policy.error.code).toBe("INVALID_REQUEST");
    expect(policy.error.message).toMatch(/^not supported: the exec policy \(defaults, the "\*" allowlist, per-agent settings\) is tools\.exec in openclaw\.json; change it there/);
    // `approvals allowlist add --agent main "~/bin/rg"`
    const added = await sock.request("exec.approvals.set", {
      file: { ...before.file, agents: { ...before.file.agents, main: { allowlist: [{ pattern: "~/bin/rg" }] } } },
      baseHash: before.hash,
    });
    expect(added.error.message).toMatch(/^not supported: ~\/bin\/rg is not an allow-always grant of agent "main": .* add it to tools\.exec\.allowlist in openclaw\.json$/);
    const noHash = await sock.request("exec.approvals.set", { file: before.file });
    expect(noHash.error.message).toBe("exec approvals base hash required; re-run exec.approvals.get and retry");
    expect((await sock.request("exec.approvals.get", {})).payload).toEqual(before);
  });

  it("needs operator.admin, as in OpenClaw", async () => {
    const { sock: reader } = await openOperator(gw.url, gw.token, { scopes: ["operator.read", "operator.approvals"] });
    const res = await reader.request("exec.approvals.get", {});
    reader.close();
    expect(res.ok).toBe(false);
    expect(res.error.message).toBe("missing scope: operator.admin");
  });
});

describe("openclaw audit", () => {
  it("audit.activity.list (the CLI's request) lists agent runs and their tool actions from the run traces, newest first", async () => {
    model.setResponder((req) => {
      const body = JSON.stringify(req.body);
      if (!body.includes("audit me please")) return { text: "ok" };
      return body.includes("call_audit_1") ? { text: "audited" } : { toolCalls: [{ id: "call_audit_1", name: "read", arguments: { path: "no-such-file.txt" } }] };
    });
    const runId = randomUUID();
    const turn = await sock.request("agent", { message: "audit me please", agentId: "main", idempotencyKey: runId });
    await sock.waitFor((f) => f.type === "res" && f.id === turn.id && f.payload?.status === "ok", 20_000);

    let events: Record<string, any>[] = [];
    for (let i = 0; i < 50 && events.length < 4; i++) {
      const res = await sock.request("audit.activity.list", { limit: 100 });
      expect(res.ok, JSON.stringify(res.error)).toBe(true);
      events = (res.payload.events as Record<string, any>[]).filter((e) => e.runId === runId);
      if (events.length < 4) await new Promise((r) => setTimeout(r, 100));
    }
    const base = { schemaVersion: 1, agentId: "main", sessionKey: "agent:main:main", runId, actor: { type: "agent", id: "main" }, redaction: "metadata_only" };
    expect(events).toEqual([
      expect.objectContaining({ ...base, kind: "agent_run", eventType: "agent_run", action: "agent.run.finished", status: "succeeded" }),
      expect.objectContaining({
        ...base,
        kind: "tool_action",
        eventType: "tool_action",
        action: "tool.action.finished",
        toolName: "read",
        toolCallId: "call_audit_1",
        status: "failed",
        errorCode: "tool_failed",
      }),
      expect.objectContaining({ ...base, kind: "tool_action", action: "tool.action.started", toolName: "read", status: "started" }),
      expect.objectContaining({ ...base, kind: "agent_run", action: "agent.run.started", status: "started" }),
    ]);
    for (let i = 1; i < events.length; i++) expect(events[i - 1]!.occurredAt).toBeGreaterThanOrEqual(events[i]!.occurredAt);

    // Filters, and pages joined by nextCursor; audit.list (the older method) answers the same records.
    const tools = await sock.request("audit.activity.list", { runId, kind: "tool_action", limit: 100 });
    expect(tools.payload.events.map((e: any) => e.action)).toEqual(["tool.action.finished", "tool.action.started"]);
    const first = await sock.request("audit.activity.list", { runId, limit: 3 });
    expect(first.payload.events).toHaveLength(3);
    expect(first.payload.nextCursor).toBe("3");
    const rest = await sock.request("audit.activity.list", { runId, limit: 3, cursor: first.payload.nextCursor });
    expect(rest.payload.events.map((e: any) => e.eventId)).toEqual([events[3]!.eventId]);
    expect(rest.payload).not.toHaveProperty("nextCursor");
    const legacy = await sock.request("audit.list", { runId, limit: 100 });
    expect(legacy.payload.events.map((e: any) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expect(legacy.payload.events[0]).not.toHaveProperty("eventType");
    // A bare session key is the default agent's session, as traces.list and sessions.* read it.
    for (const method of ["audit.activity.list", "audit.list"]) {
      for (const sessionKey of ["main", "agent:main:main"]) {
        const bySession = await sock.request(method, { sessionKey, limit: 500 });
        expect(bySession.payload.events.filter((e: any) => e.runId === runId).map((e: any) => e.eventId)).toEqual(events.map((e) => e.eventId));
      }
    }
  });

  it("refuses message records, which this gateway does not keep, and a cursor it did not hand out", async () => {
    for (const params of [{ kind: "message" }, { direction: "inbound" }, { channel: "telegram" }]) {
      const res = await sock.request("audit.activity.list", { limit: 10, ...params });
      expect(res.ok).toBe(false);
      expect(res.error.message).toMatch(/^not supported: this gateway keeps no audit record of chat messages/);
    }
    const cursor = await sock.request("audit.activity.list", { limit: 10, cursor: "abc" });
    expect(cursor.error.message).toBe("invalid audit.activity.list range or cursor");
    const range = await sock.request("audit.list", { limit: 10, after: 2000, before: 1000 });
    expect(range.error.message).toBe("invalid audit.list range or cursor");
  });
});

describe("openclaw audit --explain", () => {
  it("audit.run.inspect (the CLI's request for --run) says whether the run is known from its trace, and that identity and decision receipts are not recorded here", async () => {
    const runId = randomUUID();
    const turn = await sock.request("agent", { message: "inspect this run", agentId: "main", idempotencyKey: runId });
    await sock.waitFor((f) => f.type === "res" && f.id === turn.id && f.payload?.status === "ok", 20_000);
    const unsupported = {
      state: "unsupported",
      reasonCode: "execution_identity_not_recorded",
      missingEvidence: ["identity.context"],
      remediation: [{ code: "read_run_trace", text: expect.stringContaining("openclaw traces show") }],
    };
    const coverage = { state: "unsupported", missingEvidence: ["identity.context", "decision.receipts"] };
    let res: Awaited<ReturnType<TestSocket["request"]>> | undefined;
    for (let i = 0; i < 50; i++) {
      res = await sock.request("audit.run.inspect", { runId, executionLimit: 50, decisionLimit: 50 });
      expect(res.ok, JSON.stringify(res.error)).toBe(true);
      if (res.payload.run.status === "known") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(res!.payload).toEqual({ schemaVersion: 1, run: { runId, status: "known" }, identity: unsupported, decisionDisplays: [], coverage });
    const unknown = await sock.request("audit.run.inspect", { runId: "no-such-run", decisionLimit: 50 });
    expect(unknown.payload).toEqual({ schemaVersion: 1, run: { runId: "no-such-run", status: "unknown" }, identity: unsupported, decisionDisplays: [], coverage });
  });

  it("refuses an execution id (none exist here), a cursor it never handed out, and a request naming both or neither", async () => {
    const execution = await sock.request("audit.run.inspect", { executionId: "exec-1", decisionLimit: 50 });
    expect(execution.ok).toBe(false);
    expect(execution.error.message).toMatch(/^not supported: this gateway has no execution ids; inspect a run with --run <runId>/);
    for (const params of [
      { runId: "r1", decisionCursor: "5" },
      { runId: "r1", executionCursor: "5" },
    ]) {
      const res = await sock.request("audit.run.inspect", params);
      expect(res.error.message, JSON.stringify(params)).toBe("invalid audit.run.inspect cursor");
    }
    for (const params of [{}, { runId: "r1", executionId: "e1" }, { executionId: "e1", executionLimit: 5 }]) {
      const res = await sock.request("audit.run.inspect", params);
      expect(res.ok, JSON.stringify(params)).toBe(false);
      expect(res.error.message, JSON.stringify(params)).toMatch(/^invalid audit\.run\.inspect params: /);
    }
  });
});

describe("openclaw approvals pending", () => {
  it("exec.approval.list answers a list whose entries carry the request (what the CLI reads), and openclaw.approval.list is empty", async () => {
    const asked = await sock.request("exec.approval.request", { command: "curl https://example.com", agentId: "main", sessionKey: "agent:main:main" });
    expect(asked.ok, JSON.stringify(asked.error)).toBe(true);
    // The CLI's three requests for `openclaw approvals pending`.
    const [exec, plugin, system] = await Promise.all(["exec.approval.list", "plugin.approval.list", "openclaw.approval.list"].map((m) => sock.request(m, {})));
    expect(exec.ok, JSON.stringify(exec.error)).toBe(true);
    expect(exec.payload).toEqual([
      expect.objectContaining({
        id: asked.payload.id,
        createdAtMs: expect.any(Number),
        expiresAtMs: asked.payload.expiresAtMs,
        request: { command: "curl https://example.com", agentId: "main", sessionKey: "agent:main:main" },
      }),
    ]);
    expect(plugin.payload).toEqual([]);
    expect(system.ok, JSON.stringify(system.error)).toBe(true);
    expect(system.payload).toEqual([]);
    expect((await sock.request("exec.approval.resolve", { id: asked.payload.id, decision: "deny" })).ok).toBe(true);
    expect((await sock.request("exec.approval.list", {})).payload).toEqual([]);
  });
});

describe("openclaw approvals resolve", () => {
  const ask = async (timeoutMs?: number) => {
    const asked = await sock.request("exec.approval.request", {
      command: "curl https://example.com/x",
      agentId: "main",
      sessionKey: "agent:main:main",
      ...(timeoutMs ? { timeoutMs } : {}),
    });
    expect(asked.ok, JSON.stringify(asked.error)).toBe(true);
    return asked.payload as { id: string; expiresAtMs: number };
  };

  it("approval.get then approval.resolve (the CLI's requests) answer OpenClaw's snapshot: pending, then resolved once, then already resolved", async () => {
    const { id, expiresAtMs } = await ask();
    const got = await sock.request("approval.get", { id });
    expect(got.ok, JSON.stringify(got.error)).toBe(true);
    const presentation = { kind: "exec", commandText: "curl https://example.com/x", agentId: "main", allowedDecisions: ["allow-once", "allow-always", "deny"] };
    expect(got.payload).toEqual({ approval: { id, status: "pending", presentation, urlPath: "/#/approvals", createdAtMs: expect.any(Number), expiresAtMs } });

    const res = await sock.request("approval.resolve", { id, kind: "exec", decision: "deny" });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    const denied = {
      id,
      status: "denied",
      decision: "deny",
      reason: "user",
      presentation,
      urlPath: "/#/approvals",
      createdAtMs: got.payload.approval.createdAtMs,
      expiresAtMs,
      resolvedAtMs: expect.any(Number),
      source: { agentId: "main", sessionKey: "agent:main:main" },
      resolver: { kind: "runtime", id: expect.any(String) },
    };
    expect(res.payload).toEqual({ applied: true, approval: denied });
    // Another answer changes nothing: the recorded one comes back, not applied.
    const again = await sock.request("approval.resolve", { id, kind: "exec", decision: "allow-once" });
    expect(again.payload).toEqual({ applied: false, approval: res.payload.approval });
    expect((await sock.request("approval.get", { id })).payload).toEqual({ approval: res.payload.approval });
    expect((await sock.request("exec.approval.list", {})).payload).toEqual([]);
  });

  it("allow-always (as openclaw approvals resolve sends it) lets that exact command run without asking in the agent's later turns too", async () => {
    model.setResponder((req) => {
      const body = JSON.stringify(req.body);
      const wanted = /grant run (\w+)/.exec(body)?.[1];
      if (!wanted) return { text: "ok" };
      return body.includes(`call_grant_${wanted}`) ? { text: "ran" } : { toolCalls: [{ id: `call_grant_${wanted}`, name: "exec", arguments: { command: `printenv ${wanted}` } }] };
    });
    const turn = async (word: string, session: string) => {
      const sent = await sock.request("agent", { message: `grant run ${word}`, agentId: "main", sessionKey: `agent:main:grant-${session}`, idempotencyKey: randomUUID() });
      return sock.waitFor((f) => f.type === "res" && f.id === sent.id && f.payload?.status !== "accepted", 20_000);
    };
    const asked = (word: string) => (f: { event?: string; payload?: any }) => f.event === "exec.approval.requested" && f.payload.command === `printenv ${word}`;
    const first = turn("FIRST", "one");
    const request = await sock.waitFor(asked("FIRST"), 20_000);
    expect((await sock.request("approval.resolve", { id: request.payload.id, kind: "exec", decision: "allow-always" })).payload.applied).toBe(true);
    expect((await first).payload.status).toBe("ok");
    const askedBefore = sock.frames.filter(asked("FIRST")).length;
    // The next turn runs its own exec gate: the grant must still hold there, for that exact command.
    expect((await turn("FIRST", "two")).payload.status).toBe("ok");
    expect(sock.frames.filter(asked("FIRST"))).toHaveLength(askedBefore);
    // Other arguments are another command: asked again.
    const other = turn("SECOND", "three");
    const again = await sock.waitFor(asked("SECOND"), 20_000);
    await sock.request("approval.resolve", { id: again.payload.id, kind: "exec", decision: "deny" });
    expect((await other).payload.status).toBe("ok");
  });

  it("an approval nobody answered in time is expired; an unknown id is OpenClaw's approval not found", async () => {
    const { id } = await ask(1);
    await new Promise((r) => setTimeout(r, 50));
    const got = await sock.request("approval.get", { id });
    expect(got.payload.approval).toMatchObject({ id, status: "expired", reason: "timeout", resolver: { kind: "system" } });
    expect(got.payload.approval).not.toHaveProperty("decision");
    const res = await sock.request("approval.resolve", { id, kind: "exec", decision: "allow-once" });
    expect(res.payload).toEqual({ applied: false, approval: got.payload.approval });

    for (const [method, params] of [
      ["approval.get", { id: "no-such-approval" }],
      ["approval.resolve", { id: "no-such-approval", kind: "exec", decision: "deny" }],
    ] as const) {
      const missing = await sock.request(method, params);
      expect(missing.ok, method).toBe(false);
      expect(missing.error, method).toMatchObject({ code: "INVALID_REQUEST", message: "approval not found", details: { reason: "APPROVAL_NOT_FOUND" } });
    }
  });

  it("refuses what this gateway cannot do (another kind, a channel reviewer, an expiring grant), leaving the approval pending", async () => {
    const { id } = await ask();
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ kind: "plugin", decision: "deny" }, /is an exec approval, not plugin/],
      [{ kind: "exec", decision: "deny", reviewer: { channel: "telegram", accountId: "a", senderId: "s" } }, /^not supported: approval\.resolve on behalf of a channel reviewer/],
      [{ kind: "exec", decision: "allow-always", grantExpiresInDays: 3 }, /^not supported: grantExpiresInDays/],
      [{ kind: "exec", decision: "maybe" }, /decision/],
    ];
    for (const [params, message] of refusals) {
      const res = await sock.request("approval.resolve", { id, ...params });
      expect(res.ok, JSON.stringify(params)).toBe(false);
      expect(res.error.code).toBe("INVALID_REQUEST");
      expect(res.error.message).toMatch(message);
    }
    expect((await sock.request("approval.get", { id })).payload.approval.status).toBe("pending");

    const { sock: reader } = await openOperator(gw.url, gw.token, { scopes: ["operator.read"] });
    const forbidden = await reader.request("approval.get", { id });
    reader.close();
    expect(forbidden.error.message).toBe("missing scope: operator.approvals");
    expect((await sock.request("approval.resolve", { id, kind: "exec", decision: "deny" })).payload.applied).toBe(true);
  });
});

describe("exec approval events", () => {
  it("exec.approval.requested and .resolved carry what is asked under request (OpenClaw's shape), the requested one its fields at the top level too", async () => {
    const asked = await sock.request("exec.approval.request", { command: "curl https://example.com/e", cwd: "/tmp", agentId: "main", sessionKey: "agent:main:main" });
    const { id, expiresAtMs } = asked.payload;
    const request = { command: "curl https://example.com/e", cwd: "/tmp", agentId: "main", sessionKey: "agent:main:main" };
    const requested = await sock.waitFor((f) => f.event === "exec.approval.requested" && f.payload.id === id);
    expect(requested.payload).toEqual({ approvalKind: "exec", id, ...request, createdAtMs: expect.any(Number), expiresAtMs, request });
    await sock.request("exec.approval.resolve", { id, decision: "allow-once" });
    const resolved = await sock.waitFor((f) => f.event === "exec.approval.resolved" && f.payload.id === id);
    expect(resolved.payload).toEqual({ id, decision: "allow-once", resolvedBy: expect.any(String), ts: expect.any(Number), request });
  });
});
