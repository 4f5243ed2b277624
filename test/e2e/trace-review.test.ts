import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/chat-session.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { waitUntilGateway } from "../helpers/reliability.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * The review queue through a real gateway: runs routed by rule (cost, a model new to the agent,
 * the random sample and its daily window), an operator's thumbs-down and its withdrawal, labels,
 * over the methods and the CLI.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let reloads = 0;

type Review = Record<string, unknown>;

function writeConfig(review: Record<string, unknown>): void {
  fs.writeFileSync(path.join(gw.stateDir, "openclaw.json"), fakeModelConfig(model, gw.stateDir, { diagnostics: { traces: { review } } }));
}

async function reconfigure(review: Record<string, unknown>): Promise<void> {
  reloads += 1;
  writeConfig(review);
  await waitUntilGateway(gw, () => (gw.output().match(/"msg":"config reloaded"/g) ?? []).length >= reloads, 10_000, "the config reload");
}

async function run(usage: { input: number; output: number }): Promise<string> {
  model.enqueue({ text: "done", usage });
  const runId = randomUUID();
  const sent = await sock.request("chat.send", { sessionKey: "review", message: "go", idempotencyKey: runId });
  expect(sent.ok, JSON.stringify(sent.error)).toBe(true);
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final", 20_000);
  return runId;
}

async function queue(status = "all"): Promise<{ items: Review[]; counts: { pending: number; labelled: number } }> {
  const res = await sock.request("traces.review.list", { status });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res.payload as { items: Review[]; counts: { pending: number; labelled: number } };
}

const queued = async (runId: string) => (await queue()).items.find((i) => (i.run as { runId: string }).runId === runId);

/** HH:MM of the host-local time `hours` from now. */
function localTime(hours: number): string {
  const at = new Date(Date.now() + hours * 3_600_000);
  return `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
}

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  const review = { sampleRate: 0, highCostTokens: 1000, newModelHours: 0 };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { diagnostics: { traces: { review } } }) } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

describe("the trace review queue", () => {
  it("queues a costly run, not a cheap one; a thumbs-down queues a run and taking it back un-queues it", async () => {
    const cheap = await run({ input: 100, output: 10 });
    const costly = await run({ input: 900, output: 200 });
    expect(await queued(cheap)).toBeUndefined();
    expect(await queued(costly)).toMatchObject({ reasons: ["high-cost"], totalTokens: 1100, run: { outcome: "ok", model: "fake/fake-model", sessionKey: "agent:main:review" } });

    const down = await sock.request("traces.feedback", { runId: cheap, rating: "down", note: "  ignored my question " });
    expect(down.payload).toEqual({ ok: true, runId: cheap, rating: "down", queued: true });
    expect(await queued(cheap)).toMatchObject({ reasons: ["negative-feedback"], feedback: { rating: "down", note: "ignored my question" } });
    expect((await queue("pending")).counts).toEqual({ pending: 2, labelled: 0 });
    // One run's entry alone (what the Control UI's run view asks), and none for a run not queued.
    const one = await sock.request("traces.review.list", { status: "all", runId: costly, limit: 1 });
    expect((one.payload.items as Review[]).map((i) => (i.run as { runId: string }).runId)).toEqual([costly]);
    expect((await sock.request("traces.review.list", { status: "all", runId: "no-such-run" })).payload.items).toEqual([]);

    const up = await sock.request("traces.feedback", { runId: cheap, rating: "up" });
    expect(up.payload).toMatchObject({ queued: false });
    expect(await queued(cheap)).toBeUndefined();
    // A costly run stays queued whatever its feedback says.
    expect((await sock.request("traces.feedback", { runId: costly, rating: "up" })).payload).toMatchObject({ queued: true });
  });

  it("queues every run on a model new to the agent within newModelHours, and samples only inside the window", async () => {
    await reconfigure({ sampleRate: 0, highCostTokens: 0, newModelHours: 48 });
    expect((await queued(await run({ input: 5, output: 5 })))?.reasons).toEqual(["new-model"]);

    await reconfigure({ sampleRate: 1, highCostTokens: 0, newModelHours: 0, sampleWindow: { start: localTime(2), end: localTime(3) } });
    expect(await queued(await run({ input: 5, output: 5 }))).toBeUndefined();
    await reconfigure({ sampleRate: 1, highCostTokens: 0, newModelHours: 0 });
    expect((await queued(await run({ input: 5, output: 5 })))?.reasons).toEqual(["sampled"]);
    await reconfigure({ enabled: false, sampleRate: 1 });
    expect(await queued(await run({ input: 5000, output: 5 }))).toBeUndefined();
  });

  it("queues every run within newPromptHours of a change someone made to the agent's prompt, not of the agent writing its memory", async () => {
    await reconfigure({ sampleRate: 0, highCostTokens: 0, newModelHours: 0 });
    const workspace = path.join(gw.stateDir, "workspace");
    /** Runs until a run's prompt carries `text` (the workspace files are re-read every few seconds); that run's id and trace. */
    const runUntilPromptHas = async (text: string) =>
      eventually(async () => {
        const runId = await run({ input: 5, output: 5 });
        const found = await sock.request("traces.get", { runId });
        expect(found.payload.systemPrompt).toContain(text);
        return { runId, version: found.payload.trace.promptVersion as string };
      }, 20_000);

    const before = await runUntilPromptHas("## SOUL.md");
    expect(before.version).toMatch(/^[0-9a-f]{16}$/);
    expect(await queued(before.runId)).toBeUndefined();
    fs.appendFileSync(path.join(workspace, "MEMORY.md"), "\n- the user prefers tea\n");
    const remembered = await runUntilPromptHas("the user prefers tea");
    expect(remembered.version).toBe(before.version);
    expect(await queued(remembered.runId)).toBeUndefined();

    fs.appendFileSync(path.join(workspace, "SOUL.md"), "\nAnswer in one sentence.\n");
    const changed = await runUntilPromptHas("Answer in one sentence.");
    expect(changed.version).not.toBe(before.version);
    expect((await queued(changed.runId))?.reasons).toEqual(["new-prompt"]);
    const shown = await runCli(["traces", "show", changed.runId], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(shown.output).toContain(`version ${changed.version}`);

    await reconfigure({ sampleRate: 0, highCostTokens: 0, newModelHours: 0, newPromptHours: 0 });
    expect(await queued(await run({ input: 5, output: 5 }))).toBeUndefined();
  });

  it("the CLI lists the queue, labels runs and rates them; unknown runs, bad verdicts and read-only callers are refused", async () => {
    const env = { OPENCLAW_STATE_DIR: gw.stateDir };
    const pending = await runCli(["traces", "review", "--json"], env);
    expect(pending.code, pending.output).toBe(0);
    const listed = JSON.parse(pending.output) as { items: Review[]; counts: { pending: number; labelled: number } };
    expect(listed.counts).toEqual({ pending: 4, labelled: 0 });
    const target = (listed.items[0]!.run as { runId: string }).runId;

    const labelled = await runCli(["traces", "label", target, "fail", "--note", "answered the wrong question"], env);
    expect(labelled.code, labelled.output).toBe(0);
    expect(labelled.output).toBe(`Labelled ${target} fail.\n`);
    const table = await runCli(["traces", "review", "--labelled"], env);
    expect(table.output).toMatch(new RegExp(`${target}\\s+\\S+\\s+fail`));
    expect(table.output).toContain("3 waiting for review, 1 labelled.");
    expect((await queue("labelled")).items).toEqual([expect.objectContaining({ label: "fail", note: "answered the wrong question", labelledAt: expect.any(Number) })]);

    const rated = await runCli(["traces", "feedback", target, "down", "--json"], env);
    expect(JSON.parse(rated.output)).toEqual({ ok: true, runId: target, rating: "down", queued: true });

    const unknown = await runCli(["traces", "label", "no-such-run", "pass"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain("no trace for run no-such-run");
    const verdict = await runCli(["traces", "label", target, "maybe"], env);
    expect(verdict.code).toBe(1);
    expect(verdict.output).toContain('label: expected pass or fail, got "maybe"');
    const missing = await sock.request("traces.review.label", { runId: "no-such-run", label: "pass" });
    expect(missing.error.message).toMatch(/^no trace for run no-such-run/);

    const reader = (await openOperator(gw.url, gw.token, { scopes: ["operator.read"] })).sock;
    try {
      expect((await reader.request("traces.review.list", {})).ok).toBe(true);
      const refused = await reader.request("traces.feedback", { runId: target, rating: "down" });
      expect(refused.error.message).toContain("missing scope: operator.write");
    } finally {
      reader.close();
    }
  });
});
