import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { startInProcessGateway, type InProcessGateway } from "../helpers/in-process-gateway.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { waitUntil } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * An agentTurn job's own `fallbacks` and `tools` reach its isolated run: the job's backup model
 * answers when its model fails, and the model is offered only the tools the job names. Jobs are
 * made with the real CLI against the real gateway; the models are a fake server.
 */

let model: FakeModelServer;
let gateway: InProcessGateway | undefined;

beforeAll(async () => {
  model = await startFakeModelServer({ models: ["fake-model", "backup-model"] });
});
afterAll(async () => {
  await model.close();
});
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  model.reset();
});

const providers = (server: FakeModelServer) => ({
  providers: {
    fake: {
      baseUrl: `${server.url}/v1`,
      apiKey: "sk-fake",
      api: "openai-completions",
      models: [
        { id: "fake-model", contextWindow: 120000, maxTokens: 4096 },
        { id: "backup-model", contextWindow: 120000, maxTokens: 4096 },
      ],
    },
  },
});

const modelCalls = (): RecordedRequest[] => model.requests.filter((r) => r.method === "POST" && r.body?.messages);
const toolNames = (r: RecordedRequest): string[] => (r.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name).sort();

async function start(): Promise<InProcessGateway> {
  const stateDir = makeTempDir("openclaw-cron-options-");
  gateway = await startInProcessGateway({
    stateDir,
    config: fakeModelConfig(model, stateDir, { models: providers(model) }),
    cronClock: new ManualClock(Date.parse("2026-06-01T06:00:00Z")),
  });
  return gateway;
}

async function runAndWait(gw: InProcessGateway, jobId: string): Promise<Record<string, unknown>> {
  const ran = await runCli(["cron", "run", jobId, "--json"], gw.cliEnv);
  expect(ran.code, ran.output).toBe(0);
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    const runs = await runCli(["cron", "runs", jobId, "--json"], gw.cliEnv);
    const entry = JSON.parse(runs.output).entries[0];
    if (entry) return entry;
  }
  throw new Error(`no run of ${jobId} was recorded within 20 s`);
}

describe("unknown job ids", () => {
  it("cron runs of a job that does not exist fails like cron rm, text and JSON", async () => {
    const gw = await start();
    const text = await runCli(["cron", "runs", "nope"], gw.cliEnv);
    expect(text.code).toBe(1);
    expect(text.output).toContain("no cron job nope (openclaw cron list --all shows the ids)");
    expect((await runCli(["cron", "runs", "nope", "--json"], gw.cliEnv)).code).toBe(1);
    expect((await runCli(["cron", "rm", "nope"], gw.cliEnv)).output).toContain("no cron job nope");
    const all = await runCli(["cron", "runs"], gw.cliEnv);
    expect(all.code).toBe(0);
    expect(all.output).toContain("No runs yet");
  });
});

describe("flags that do not fit the job", { timeout: 120_000 }, () => {
  it("are refused naming the flag, not dropped, and nothing is stored", async () => {
    const gw = await start();
    const refusals: [string[], string][] = [
      [["--every", "1h", "--exact", "--system-event", "t"], "--exact goes with --cron only"],
      [["--at", "20m", "--exact", "--system-event", "t"], "--exact goes with --cron only"],
      [["--every", "1h", "--system-event", "t", "--model", "fake/fake-model"], "go with --message"],
      [["--every", "1h", "--system-event", "t", "--light-context"], "go with --message"],
      [["--every", "1h", "--message", "m", "--best-effort"], "--account and --best-effort go with a chat delivery"],
      [["--every", "1h", "--message", "m", "--account", "ops"], "--account and --best-effort go with a chat delivery"],
      [["--every", "1h", "--message", "m", "--webhook", "https://example.com/h", "--best-effort"], "--account and --best-effort go with a chat delivery"],
      [["--every", "1h", "--message", "m", "--delete-after-run"], "deleteAfterRun: only a one-shot (at) job is removed after its run"],
      [["--at", "20m", "--tz", "Europe/Berlin", "--system-event", "t"], "at: a time zone applies to an ISO time without an offset"],
      [["--at", "2026-12-24T18:00Z", "--tz", "Europe/Berlin", "--system-event", "t"], "at: a time zone applies to an ISO time without an offset"],
      [["--cron", "0 9 * * *", "--message", "m", "--delete-after-run"], "deleteAfterRun: only a one-shot (at) job is removed after its run"],
      [["--at", "20m", "--message", "m", "--delete-after-run", "--keep-after-run"], "--delete-after-run and --keep-after-run contradict each other"],
    ];
    for (const [flags, message] of refusals) {
      const res = await runCli(["cron", "add", "--name", "x", ...flags], gw.cliEnv);
      expect(res.code, flags.join(" ")).toBe(1);
      expect(res.output, flags.join(" ")).toContain(message);
    }
    const list = await runCli(["cron", "list", "--all", "--json"], gw.cliEnv);
    expect(JSON.parse(list.output).jobs).toEqual([]);

    const added = await runCli(["cron", "add", "--name", "once", "--at", "20m", "--message", "m", "--json"], gw.cliEnv);
    expect(added.code, added.output).toBe(0);
    const job = JSON.parse(added.output).job;
    const recurring = await runCli(["cron", "edit", job.id, "--every", "1h", "--delete-after-run"], gw.cliEnv);
    expect(recurring.output).toContain("deleteAfterRun: only a one-shot (at) job is removed after its run");
    const kept = await runCli(["cron", "list", "--all", "--json"], gw.cliEnv);
    expect(JSON.parse(kept.output).jobs[0]).toMatchObject({ schedule: { kind: "at" }, deleteAfterRun: true });
  });

  it("a one-shot job is removed after its run unless kept, and an edit between one-shot and recurring carries that default", async () => {
    const gw = await start();
    const jobOf = async (args: string[]) => {
      const res = await runCli([...args, "--json"], gw.cliEnv);
      expect(res.code, res.output).toBe(0);
      return JSON.parse(res.output).job;
    };
    expect(await jobOf(["cron", "add", "--name", "once", "--at", "20m", "--message", "m"])).toMatchObject({ deleteAfterRun: true });
    const keep = await jobOf(["cron", "add", "--name", "keep", "--at", "20m", "--message", "m", "--keep-after-run"]);
    expect(keep.deleteAfterRun).toBe(false);
    const hourly = await jobOf(["cron", "add", "--name", "hourly", "--every", "1h", "--message", "m"]);
    expect(hourly.deleteAfterRun).toBeUndefined();
    expect(await jobOf(["cron", "edit", hourly.id, "--at", "20m"])).toMatchObject({ deleteAfterRun: true });
    expect((await jobOf(["cron", "edit", hourly.id, "--every", "2h"])).deleteAfterRun).toBeUndefined();
  });
});

describe("sessions of other agents", { timeout: 120_000 }, () => {
  it("a session or report-to key naming an agent the config does not define is refused naming the field, on add and edit", async () => {
    const gw = await start();
    const refusals: [string[], string][] = [
      [["--session", "session:agent:ghost:ops"], 'sessionTarget: unknown agent "ghost"; known agents: main'],
      [["--report-to", "agent:ghost:main"], 'delivery.to: unknown agent "ghost"; known agents: main'],
    ];
    for (const [flags, message] of refusals) {
      const res = await runCli(["cron", "add", "--name", "x", "--every", "1h", "--message", "m", ...flags], gw.cliEnv);
      expect(res.code, flags.join(" ")).toBe(1);
      expect(res.output, flags.join(" ")).toContain(message);
    }
    expect(JSON.parse((await runCli(["cron", "list", "--all", "--json"], gw.cliEnv)).output).jobs).toEqual([]);
    const added = await runCli(["cron", "add", "--name", "x", "--every", "1h", "--message", "m", "--session", "session:agent:main:ops", "--json"], gw.cliEnv);
    expect(added.code, added.output).toBe(0);
    const job = JSON.parse(added.output).job;
    const moved = await runCli(["cron", "edit", job.id, "--session", "session:agent:ghost:ops"], gw.cliEnv);
    expect(moved.output).toContain('sessionTarget: unknown agent "ghost"');
    const kept = JSON.parse((await runCli(["cron", "list", "--all", "--json"], gw.cliEnv)).output).jobs[0];
    expect(kept.sessionTarget).toBe("session:agent:main:ops");
    expect(fs.existsSync(path.join(gw.stateDir, "agents", "ghost"))).toBe(false);
  });
});

describe("agentTurn fallbacks and tools", { timeout: 120_000 }, () => {
  it("the job's fallback answers when its model fails, and the run is offered only the job's tools", async () => {
    model.setResponder((req) => (req.body.model === "fake-model" ? { status: 500 } : { text: `answered by ${req.body.model}` }));
    const gw = await start();
    const added = await runCli(
      [
        "cron",
        "add",
        "--name",
        "narrow",
        "--every",
        "1d",
        "--message",
        "Check the logs",
        "--model",
        "fake/fake-model",
        "--fallbacks",
        "fake/backup-model",
        "--tools",
        "read,group:memory",
        "--json",
      ],
      gw.cliEnv,
    );
    expect(added.code, added.output).toBe(0);
    const job = JSON.parse(added.output).job;
    expect(job.payload).toMatchObject({ fallbacks: ["fake/backup-model"], tools: ["read", "group:memory"] });

    const entry = await runAndWait(gw, job.id);
    expect(entry).toMatchObject({ status: "ok", summary: "answered by backup-model", model: "fake/backup-model" });
    const calls = modelCalls();
    expect(calls.map((c) => c.body.model)).toEqual(["fake-model", "backup-model"]);
    for (const call of calls) expect(toolNames(call)).toEqual(["memory_get", "memory_search", "read"]);

    // The same job without its tool list is offered the (non-owner) default set again.
    const edited = await runCli(["cron", "edit", job.id, "--message", "Check the logs", "--model", "fake/backup-model", "--json"], gw.cliEnv);
    expect(edited.code, edited.output).toBe(0);
    model.reset();
    model.setResponder(() => ({ text: "wide" }));
    await runCli(["cron", "run", job.id], gw.cliEnv);
    await waitUntil(() => modelCalls().length > 0, 20_000, "the second run's model call");
    expect(toolNames(modelCalls()[0]!)).toEqual(expect.arrayContaining(["read", "write", "edit"]));
  });

  it("bad fallbacks and tools are refused with the field named, and nothing is stored", async () => {
    const gw = await start();
    const badGroup = await runCli(["cron", "add", "--name", "x", "--every", "1h", "--message", "m", "--tools", "read,group:nope"], gw.cliEnv);
    expect(badGroup.code).not.toBe(0);
    expect(badGroup.output).toMatch(/payload\.tools\[1\]: unknown tool group "group:nope"/);
    const badRef = await runCli(["cron", "add", "--name", "x", "--every", "1h", "--message", "m", "--fallbacks", "backup-model"], gw.cliEnv);
    expect(badRef.output).toMatch(/payload\.fallbacks\[0\]: expected provider\/model/);
    const shared = await runCli(["cron", "add", "--name", "x", "--every", "1h", "--message", "m", "--session", "session:ops", "--tools", "read"], gw.cliEnv);
    expect(shared.output).toMatch(/payload\.tools applies to isolated runs only/);
    const unknownField = await runCli(
      [
        "gateway",
        "call",
        "cron.add",
        "--params",
        JSON.stringify({ name: "x", schedule: { kind: "every", every: "1h" }, sessionTarget: "isolated", payload: { kind: "agentTurn", message: "m", deliver: true } }),
      ],
      gw.cliEnv,
    );
    expect(unknownField.code).not.toBe(0);
    const ghost = await runCli(["cron", "add", "--name", "x", "--every", "1h", "--message", "m", "--agent", "nobody"], gw.cliEnv);
    expect(ghost.code).not.toBe(0);
    expect(ghost.output).toContain('agentId: unknown agent "nobody"; known agents: main (define it under agents.entries to use it)');
    const list = await runCli(["cron", "list", "--all", "--json"], gw.cliEnv);
    expect(JSON.parse(list.output).jobs).toEqual([]);
  });

  it("a model no configured provider resolves, or an announce to a channel this gateway does not have, is refused naming the field and the choices, on add and update", async () => {
    const gw = await start();
    const { sock } = await openOperator(gw.url, gw.token, { scopes: ["operator.admin"] });
    try {
      const job = (payload: Record<string, unknown>, delivery?: Record<string, unknown>) => ({
        name: "x",
        schedule: { kind: "every", every: "1h" },
        sessionTarget: "isolated",
        payload: { kind: "agentTurn", message: "m", ...payload },
        ...(delivery ? { delivery } : {}),
      });
      const refusals: [Record<string, unknown>, RegExp][] = [
        [job({ model: "nowhere/some-model" }), /^payload\.model: Unknown model provider "nowhere" .*Known providers: .*\bfake\b/],
        [job({ fallbacks: ["fake/backup-model", "nowhere/x"] }), /^payload\.fallbacks\[1\]: Unknown model provider "nowhere"/],
        [job({}, { mode: "announce", channel: "pigeon", to: "1" }), /^delivery\.channel: no chat channel is configured on this gateway/],
      ];
      for (const [params, message] of refusals) {
        const res = await sock.request("cron.add", params);
        expect(res.error, JSON.stringify(params)).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringMatching(message) });
      }
      expect((await sock.request("cron.list", {})).payload.jobs).toEqual([]);

      const added = await sock.request("cron.add", job({ model: "fake/backup-model" }));
      expect(added.ok).toBe(true);
      const moved = await sock.request("cron.update", { id: added.payload.id, patch: { payload: { kind: "agentTurn", message: "m", model: "nowhere/x" } } });
      expect(moved.error.message).toMatch(/^payload\.model: Unknown model provider "nowhere"/);
      const announced = await sock.request("cron.update", { id: added.payload.id, patch: { delivery: { mode: "announce", channel: "telegram", to: "1" } } });
      expect(announced.error.message).toMatch(/^delivery\.channel: no chat channel is configured/);
      const kept = (await sock.request("cron.get", { id: added.payload.id })).payload;
      expect(kept.payload.model).toBe("fake/backup-model");
      expect(kept.delivery).toEqual({ mode: "none" });
    } finally {
      sock.close();
    }
  });

  it("a job moved to an agent the config does not define is refused and keeps its agent", async () => {
    const gw = await start();
    const added = await runCli(["cron", "add", "--name", "x", "--every", "1h", "--message", "m", "--json"], gw.cliEnv);
    const job = JSON.parse(added.output).job ?? JSON.parse(added.output);
    const moved = await runCli(["gateway", "call", "cron.update", "--params", JSON.stringify({ id: job.id, patch: { agentId: "nobody" } })], gw.cliEnv);
    expect(moved.code).not.toBe(0);
    expect(moved.output).toContain('unknown agent "nobody"');
    const list = await runCli(["cron", "list", "--all", "--json"], gw.cliEnv);
    expect(JSON.parse(list.output).jobs.map((j: { agentId?: string }) => j.agentId ?? "main")).toEqual(["main"]);
  });
});
