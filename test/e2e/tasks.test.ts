import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, spawnCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { allTextOf, isSubagentRequest, lastMessageOf } from "../helpers/model-request.js";
import { waitUntil } from "../helpers/reliability.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * The background task ledger end to end (real gateway, fake model): sub-agent spawns, cron runs
 * and `agent` runs are tasks, `tasks.list|get|cancel` and `openclaw tasks …` read and cancel them, `/tasks`
 * shows a session's, and a task running when the gateway is killed is `lost` after the restart.
 */

const servers = useFakeServers();

/** Child replies held until the test releases them (a cancelled one is never released). */
function gate(): { wait: Promise<void>; release: () => void } {
  let release!: () => void;
  const wait = new Promise<void>((resolve) => (release = resolve));
  return { wait, release };
}

/** The parent spawns a child for "spawn <task>" ("hold …" is held); a child answers by its task's name: ok-* after `okGate`, bad-* with a 400, held-* never. */
function spawnResponder(okGate: Promise<void>, heldGate: Promise<void>) {
  return async (req: RecordedRequest) => {
    if (isSubagentRequest(req)) {
      const text = allTextOf(req);
      if (text.includes("bad-child")) return { status: 400 };
      if (text.includes("held-child")) {
        await heldGate;
        return { text: "too late" };
      }
      await okGate;
      return { text: "child result: 42" };
    }
    const last = lastMessageOf(req);
    if (last.role === "user" && last.text.startsWith("hold ")) {
      await heldGate;
      return { text: "too late" };
    }
    if (last.role === "user" && last.text.startsWith("spawn ")) {
      const task = last.text.slice("spawn ".length);
      return { toolCalls: [{ name: "sessions_spawn", arguments: { task, label: task } }] };
    }
    if (last.role === "tool") return { text: "started" };
    return { text: "noted" };
  };
}

async function start(stateDir = makeTempDir("openclaw-tasks-")): Promise<{ gw: GatewayProcess; sock: TestSocket }> {
  const gw = servers.keep(await startGateway({ stateDir, token: "tasks-token-1", configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir) } }));
  const { sock } = await openOperator(gw.url, gw.token);
  return { gw, sock };
}

const cli = (gw: GatewayProcess, args: string[]) => runCli(args, { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) });

async function send(sock: TestSocket, sessionKey: string, message: string): Promise<void> {
  const key = randomUUID();
  const res = await sock.request("chat.send", { sessionKey, message, idempotencyKey: key });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 15_000);
}

async function tasks(sock: TestSocket, params: Record<string, unknown> = {}): Promise<any[]> {
  const res = await sock.request("tasks.list", params);
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res.payload.tasks;
}

async function taskWhere(sock: TestSocket, what: string, match: (task: any) => boolean): Promise<any> {
  let found: any;
  for (const deadline = Date.now() + 15_000; !found; ) {
    found = (await tasks(sock)).find(match);
    if (!found && Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await tasks(sock))}`);
  }
  return found;
}

describe("background tasks", { timeout: 120_000 }, () => {
  it("a sub-agent spawn is a task running then succeeded, a failing child's failed; tasks.get, the CLI and /tasks read them", async () => {
    const ok = gate();
    const held = gate();
    servers.model.setResponder(spawnResponder(ok.wait, held.wait));
    try {
      const { gw, sock } = await start();
      await send(sock, "parent", "spawn ok-child report");
      const running = await taskWhere(sock, "the running sub-agent task", (t) => t.title === "ok-child report");
      expect(running).toMatchObject({ runtime: "subagent", kind: "subagent", status: "running", ledgerStatus: "running", agentId: "main", sessionKey: "agent:main:parent" });
      expect(running.childSessionKey).toMatch(/^agent:main:subagent:/);
      expect(running.prompt).toBeUndefined();
      ok.release();
      const done = await taskWhere(sock, "the succeeded task", (t) => t.taskId === running.taskId && t.ledgerStatus === "succeeded");
      expect(done).toMatchObject({ status: "completed", terminalSummary: "child result: 42" });
      expect(done.endedAt).toBeGreaterThanOrEqual(done.startedAt);

      await send(sock, "parent", "spawn bad-child job");
      const failed = await taskWhere(sock, "the failed task", (t) => t.title === "bad-child job" && t.ledgerStatus === "failed");
      expect(failed.status).toBe("failed");
      expect(failed.error).toBeTruthy();

      for (const token of [running.taskId, running.runId, running.childSessionKey]) {
        const got = await sock.request("tasks.get", { taskId: token });
        expect(got.payload.task).toMatchObject({ taskId: running.taskId, prompt: "ok-child report" });
      }
      const missing = await sock.request("tasks.get", { taskId: "no-such-task" });
      expect(missing.error).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringContaining("task not found: no-such-task") });
      expect((await tasks(sock, { status: "completed" })).map((t) => t.taskId)).toEqual([running.taskId]);
      expect((await tasks(sock, { runtime: "cron" })).length).toBe(0);
      expect((await tasks(sock, { limit: 1 })).map((t) => t.taskId)).toEqual([failed.taskId]);
      const cursor = await sock.request("tasks.list", { cursor: "x" });
      expect(cursor.error?.message).toMatch(/cursor is not supported here/);

      const listed = await cli(gw, ["tasks", "list", "--json"]);
      expect(listed.code, listed.output).toBe(0);
      const json = JSON.parse(listed.output);
      expect(json).toMatchObject({ count: 2, runtime: null, status: null });
      expect(json.tasks.map((t: any) => t.taskId)).toEqual([failed.taskId, running.taskId]);
      const onlyFailed = JSON.parse((await cli(gw, ["tasks", "--status", "failed", "--runtime", "subagent", "--json"])).output);
      expect(onlyFailed.tasks.map((t: any) => t.taskId)).toEqual([failed.taskId]);
      const table = await cli(gw, ["tasks"]);
      expect(table.output).toMatch(/Background tasks: 2 \(0 active\)/);
      expect(table.output).toMatch(/Task\s+Kind\s+Status\s+Run\s+Child Session\s+Summary/);
      const shown = await cli(gw, ["tasks", "show", running.runId]);
      expect(shown.code, shown.output).toBe(0);
      expect(shown.output).toContain(`taskId: ${running.taskId}`);
      expect(shown.output).toContain("status: succeeded");
      expect(shown.output).toContain("task: ok-child report");
      const shownJson = JSON.parse((await cli(gw, ["tasks", "show", running.taskId, "--json"])).output);
      expect(shownJson).toMatchObject({ taskId: running.taskId, ledgerStatus: "succeeded" });
      const unknown = await cli(gw, ["tasks", "show", "nope"]);
      expect(unknown.code).toBe(1);
      expect(unknown.output).toMatch(/no task matches nope/);
      const badStatus = await cli(gw, ["tasks", "list", "--status", "blocked"]);
      expect(badStatus.code).toBe(1);
      expect(badStatus.output).toMatch(/--status blocked is not supported here/);

      const board = await sock.request("chat.send", { sessionKey: "parent", message: "/tasks", idempotencyKey: randomUUID() });
      expect(board.payload.reply).toMatch(/^Background tasks \(newest first\):\n1\. \[failed\] subagent · bad-child job/);
      expect(board.payload.reply).toMatch(/2\. \[succeeded\] subagent · ok-child report · took \d+s · child result: 42/);
      const empty = await sock.request("chat.send", { sessionKey: "elsewhere", message: "/tasks", idempotencyKey: randomUUID() });
      expect(empty.payload.reply).toMatch(/^No background tasks for this session\. Agent main: 0 active, 2 finished\./);
    } finally {
      ok.release();
      held.release();
    }
  });

  it("tasks.cancel and `openclaw tasks cancel` kill a held child: cancelled, its run aborted; a finished task answers it already ended", async () => {
    const ok = gate();
    const held = gate();
    servers.model.setResponder(spawnResponder(ok.wait, held.wait));
    try {
      const { gw, sock } = await start();
      await send(sock, "parent", "spawn held-child one");
      const first = await taskWhere(sock, "the held child", (t) => t.title === "held-child one");
      await waitUntil(() => servers.model.requests.some((r) => isSubagentRequest(r) && allTextOf(r).includes("held-child one")), 15_000, "the child's model call");
      const cancelled = await sock.request("tasks.cancel", { taskId: first.taskId, reason: "not needed" });
      expect(cancelled.payload).toMatchObject({
        found: true,
        cancelled: true,
        task: { taskId: first.taskId, status: "cancelled", ledgerStatus: "cancelled", error: "cancelled: not needed" },
      });
      const waited = await sock.request("agent.wait", { runId: first.runId, timeoutMs: 5_000 });
      expect(waited.payload).toMatchObject({ status: "error", error: "aborted" });
      const again = await sock.request("tasks.cancel", { taskId: first.taskId });
      expect(again.payload).toMatchObject({ found: true, cancelled: false, reason: expect.stringContaining("already ended (cancelled)") });
      expect((await sock.request("tasks.cancel", { taskId: "no-such-task" })).payload).toEqual({ found: false, cancelled: false, reason: "task not found: no-such-task" });

      await send(sock, "parent", "spawn held-child two");
      const second = await taskWhere(sock, "the second held child", (t) => t.title === "held-child two");
      const viaCli = await cli(gw, ["tasks", "cancel", second.childSessionKey]);
      expect(viaCli.code, viaCli.output).toBe(0);
      expect(viaCli.output).toContain(`Cancelled ${second.taskId} (subagent) run ${second.runId}.`);
      expect((await sock.request("tasks.get", { taskId: second.taskId })).payload.task.ledgerStatus).toBe("cancelled");
      const twice = await cli(gw, ["tasks", "cancel", second.taskId]);
      expect(twice.code).toBe(1);
      expect(twice.output).toMatch(/already ended \(cancelled\)/);

      for (const name of ["notify", "retry", "dismiss", "audit", "maintenance", "flow"]) {
        const refused = await cli(gw, ["tasks", name, "x"]);
        expect(refused.code, name).toBe(1);
        expect(refused.output).toMatch(new RegExp(`openclaw tasks ${name} is not supported here`));
      }
    } finally {
      ok.release();
      held.release();
    }
  });

  it("a cron run is a cron task; a held one is cancelled through its run's abort", async () => {
    const heldRun = gate();
    servers.model.setResponder(async (req) => {
      if (allTextOf(req).includes("too slow")) return { text: "never in time", delayMs: 30_000 };
      if (allTextOf(req).includes("hold this run")) {
        await heldRun.wait;
        return { text: "late" };
      }
      return { text: "the report" };
    });
    try {
      const { gw, sock } = await start();
      const added = await cli(gw, ["cron", "add", "--name", "nightly", "--every", "1d", "--message", "write the report", "--json"]);
      expect(added.code, added.output).toBe(0);
      const jobId = JSON.parse(added.output).job.id;
      const ran = await sock.request("cron.run", { id: jobId });
      expect(ran.ok, JSON.stringify(ran.error)).toBe(true);
      const task = await taskWhere(sock, "the cron task", (t) => t.runtime === "cron" && t.ledgerStatus === "succeeded");
      expect(task).toMatchObject({ kind: "cron", status: "completed", sourceId: jobId, title: "nightly", terminalSummary: "the report" });
      expect(task.sessionKey).toBeUndefined();
      expect(task.childSessionKey).toMatch(/cron/);
      expect((await sock.request("tasks.get", { taskId: task.taskId })).payload.task.prompt).toBe("write the report");

      const slow = await cli(gw, ["cron", "add", "--name", "slow", "--every", "1d", "--message", "hold this run", "--json"]);
      const slowId = JSON.parse(slow.output).job.id;
      expect((await sock.request("cron.run", { id: slowId })).ok).toBe(true);
      const running = await taskWhere(sock, "the held cron task", (t) => t.sourceId === slowId && t.ledgerStatus === "running");
      await waitUntil(() => servers.model.requests.some((r) => allTextOf(r).includes("hold this run")), 15_000, "the cron run's model call");
      const cancelled = await cli(gw, ["tasks", "cancel", running.runId]);
      expect(cancelled.code, cancelled.output).toBe(0);
      expect(cancelled.output).toContain(`Cancelled ${running.taskId} (cron)`);
      let runs: { status: string; error?: string }[] = [];
      for (const deadline = Date.now() + 15_000; Date.now() < deadline && runs.length === 0; ) {
        runs = JSON.parse((await cli(gw, ["cron", "runs", slowId, "--json"])).output).entries;
      }
      expect(runs).toEqual([expect.objectContaining({ status: "error", error: expect.stringMatching(/aborted/) })]);
      expect((await sock.request("tasks.get", { taskId: running.taskId })).payload.task.ledgerStatus).toBe("cancelled");

      const limited = await cli(gw, ["cron", "add", "--name", "limited", "--every", "1d", "--message", "too slow", "--timeout-seconds", "1", "--json"]);
      const limitedId = JSON.parse(limited.output).job.id;
      expect((await sock.request("cron.run", { id: limitedId })).ok).toBe(true);
      const timedOut = await taskWhere(sock, "the timed-out cron task", (t) => t.sourceId === limitedId && t.ledgerStatus !== "running");
      expect(timedOut).toMatchObject({ ledgerStatus: "timed_out", status: "timed_out" });
    } finally {
      heldRun.release();
    }
  });

  it("an `agent` run is a cli task; a held one is cancelled through its run's abort", async () => {
    const heldRun = gate();
    servers.model.setResponder(async (req) => {
      if (allTextOf(req).includes("hold agent run")) {
        await heldRun.wait;
        return { text: "late" };
      }
      return { text: "hi there" };
    });
    try {
      const { gw, sock } = await start();
      const said = await cli(gw, ["agent", "-m", "say hi"]);
      expect(said.code, said.output).toBe(0);
      const done = await taskWhere(sock, "the cli task", (t) => t.runtime === "cli" && t.ledgerStatus === "succeeded");
      expect(done).toMatchObject({ kind: "cli", title: "say hi", childSessionKey: "agent:main:main", terminalSummary: "hi there" });
      expect(done.sessionKey).toBeUndefined();

      const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
      const held = spawnCli(["agent", "-m", "hold agent run"], env);
      const running = await taskWhere(sock, "the held cli task", (t) => t.runtime === "cli" && t.title === "hold agent run" && t.ledgerStatus === "running");
      await waitUntil(() => servers.model.requests.some((r) => allTextOf(r).includes("hold agent run")), 15_000, "the agent run's model call");
      const cancelled = await cli(gw, ["tasks", "cancel", running.taskId]);
      expect(cancelled.code, cancelled.output).toBe(0);
      expect(cancelled.output).toContain(`Cancelled ${running.taskId} (cli) run ${running.runId}.`);
      expect((await sock.request("agent.wait", { runId: running.runId, timeoutMs: 5_000 })).payload).toMatchObject({ status: "error", error: "aborted" });
      expect(await held.exited).not.toBe(0);
      expect((await sock.request("tasks.get", { taskId: running.taskId })).payload.task).toMatchObject({ ledgerStatus: "cancelled", error: "cancelled by an operator" });
    } finally {
      heldRun.release();
    }
  });

  it("a task running when the gateway is killed (SIGKILL) or stopped (SIGTERM) is lost after the restart", async () => {
    const ok = gate();
    const held = gate();
    servers.model.setResponder(spawnResponder(ok.wait, held.wait));
    try {
      const stateDir = makeTempDir("openclaw-tasks-lost-");
      const first = await start(stateDir);
      await send(first.sock, "parent", "spawn held-child crash");
      const running = await taskWhere(first.sock, "the held child", (t) => t.title === "held-child crash");
      expect(running.ledgerStatus).toBe("running");
      first.sock.close();
      await servers.kill(first.gw);
      const second = await start(stateDir);
      const lost = (await second.sock.request("tasks.get", { taskId: running.taskId })).payload.task;
      expect(lost).toMatchObject({ ledgerStatus: "lost", status: "failed", error: expect.stringMatching(/gateway stopped while this task ran/) });
      const listed = JSON.parse((await cli(second.gw, ["tasks", "list", "--status", "lost", "--json"])).output);
      expect(listed.tasks.map((t: any) => t.taskId)).toEqual([running.taskId]);

      // A clean stop aborts the run it cuts; its task is lost as well, not cancelled.
      const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: second.gw.token, OPENCLAW_GATEWAY_PORT: String(second.gw.port) };
      const agentRun = spawnCli(["agent", "-m", "hold this agent run"], env);
      const cut = await taskWhere(second.sock, "the held agent run", (t) => t.runtime === "cli" && t.ledgerStatus === "running");
      second.sock.close();
      expect(await second.gw.stop("SIGTERM")).toBe(0);
      await agentRun.exited;
      const third = await start(stateDir);
      expect((await third.sock.request("tasks.get", { taskId: cut.taskId })).payload.task).toMatchObject({ ledgerStatus: "lost" });
    } finally {
      ok.release();
      held.release();
    }
  });
});
