import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { startFakeModelServer, type FakeModelServer, type FakeReply, type RecordedRequest } from "../fakes/model-server.js";
import { comparedAnswers } from "../helpers/eval-judge-prompts.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * `openclaw eval draft`: runs an operator labelled in the review queue become task files of a
 * suite, which `openclaw eval run` then runs against the (fake) model.
 */

type Message = { role: string; content: unknown };
const text = (m: Message | undefined): string => (typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? ""));

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
/** Once true, the model answers as a better agent would. It judges rubrics and compares answers. */
let improved = false;

function responder(request: RecordedRequest): FakeReply {
  const messages = (request.body as { messages: Message[] }).messages;
  const last = messages[messages.length - 1];
  const prompt = text([...messages].reverse().find((m) => m.role === "user"));
  if (prompt.includes("You grade an AI agent's answer")) return { text: /Paris|blue/.test(prompt) ? "PASS It is right." : "FAIL It is wrong." };
  if (prompt.includes("You compare two answers")) {
    const [a, b] = comparedAnswers(prompt).map((answer) => answer?.includes("blue") === true);
    return { text: a === b ? "TIE Both say blue." : a ? "A It says blue." : "B It says blue." };
  }
  if (last?.role === "tool") return { text: "The note says blue." };
  if (prompt.includes("capital of France")) return { text: improved ? "Paris." : "Berlin." };
  if (prompt.includes("notes.txt")) return { toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] };
  return { text: "ok" };
}

async function run(message: string): Promise<string> {
  const runId = randomUUID();
  await sock.request("chat.send", { sessionKey: "drafts", message, idempotencyKey: runId });
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final", 20_000);
  return runId;
}

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder(responder);
  const stateDir = makeTempDir();
  fs.mkdirSync(path.join(stateDir, "workspace"), { recursive: true });
  fs.writeFileSync(path.join(stateDir, "workspace", "notes.txt"), "blue\n");
  const content = fakeModelConfig(model, stateDir, { diagnostics: { traces: { review: { sampleRate: 0, highCostTokens: 0, newModelHours: 0 } } } });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

describe("openclaw eval draft", () => {
  it("drafts failed runs (then all), never overwrites a draft, and the drafted suite runs", { timeout: 120_000 }, async () => {
    const wrong = await run("What is the capital of France?");
    const right = await run("What does notes.txt say?");
    expect((await sock.request("traces.review.label", { runId: wrong, label: "fail", note: "named the wrong city" })).ok).toBe(true);
    expect((await sock.request("traces.review.label", { runId: right, label: "pass" })).ok).toBe(true);
    const env = { OPENCLAW_STATE_DIR: gw.stateDir };
    const suite = path.join(makeTempDir(), "from-review");

    const first = await runCli(["eval", "draft", suite], env);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain(`Drafted 1 task(s) in ${suite}.`);
    const failed = fs.readFileSync(path.join(suite, `review-${wrong}.yaml`), "utf8");
    expect(failed).toMatch(/^# Drafted by openclaw eval draft from run /);
    expect(parseYaml(failed)).toEqual({
      description: `Drafted from run ${wrong} (agent:main:drafts), labelled fail: named the wrong city.`,
      prompt: "What is the capital of France?",
      graders: [
        {
          rubric:
            'An operator judged an earlier reply to this message wrong: "named the wrong city". PASS only if this reply does not have that problem and does what the user asked.',
        },
      ],
    });

    fs.appendFileSync(path.join(suite, `review-${wrong}.yaml`), "# edited by hand\n");
    const all = await runCli(["eval", "draft", suite, "--label", "all", "--json"], env);
    expect(all.code, all.output).toBe(0);
    const report = JSON.parse(all.output) as { written: { runId: string }[]; kept: { runId: string }[] };
    expect(report.written.map((w) => w.runId)).toEqual([right]);
    expect(report.kept.map((k) => k.runId)).toEqual([wrong]);
    expect(fs.readFileSync(path.join(suite, `review-${wrong}.yaml`), "utf8")).toContain("# edited by hand");
    expect(parseYaml(fs.readFileSync(path.join(suite, `review-${right}.yaml`), "utf8")).graders).toEqual([
      { compare: { rubric: "It does what the user asked. The reference is a reply an operator judged right.", reference: "The note says blue." } },
      { toolCalled: "read" },
    ]);

    // The suite fails while the agent still answers wrongly, and passes once it answers better.
    const before = await runCli(["eval", "run", suite, "--json"], env, 90_000);
    const passAt1 = (output: string) => Object.fromEntries(JSON.parse(output).tasks.map((t: { name: string; passAt1: number }) => [t.name, t.passAt1]));
    expect(passAt1(before.output)).toEqual({ [`review-${right}`]: 1, [`review-${wrong}`]: 0 });
    improved = true;
    const after = await runCli(["eval", "run", suite, "--json"], env, 90_000);
    expect(after.code, after.output).toBe(0);
    expect(passAt1(after.output)).toEqual({ [`review-${right}`]: 1, [`review-${wrong}`]: 1 });
  });

  it("says what to do when no run is labelled, and refuses a bad --label", async () => {
    const env = { OPENCLAW_STATE_DIR: makeTempDir() };
    const none = await runCli(["eval", "draft", path.join(makeTempDir(), "empty")], env);
    expect(none.code).toBe(0);
    expect(none.output).toBe("No runs labelled fail in the review queue: label runs with openclaw traces label <runId> pass|fail.\n");
    const bad = await runCli(["eval", "draft", makeTempDir(), "--label", "maybe"], env);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('--label: expected fail, pass or all, got "maybe"');
  });
});
