import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { startFakeModelServer, type FakeModelServer, type FakeReply, type RecordedRequest } from "../fakes/model-server.js";
import { comparedAnswers, judgedAnswer } from "../helpers/eval-judge-prompts.js";

const SUITE = path.resolve("evals/basic");
let server: FakeModelServer;

type Message = { role: string; content: unknown };
const text = (m: Message | undefined): string => (typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? ""));

/**
 * A small scripted agent behind the fake model: it answers the tasks of evals/basic the way a
 * capable model would (tools first where the task needs them), and judges rubrics.
 */
function capableModel(request: RecordedRequest): FakeReply {
  const messages = (request.body as { messages: Message[] }).messages;
  const last = messages[messages.length - 1];
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const prompt = text(lastUser);
  if (prompt.includes("You grade an AI agent's answer")) return { text: judgedAnswer(prompt)?.includes("Ada") ? "PASS It names Ada." : "FAIL It does not name Ada." };
  if (prompt.includes("You compare two answers")) {
    // The answer that names Ada is the better one; two that both do (or neither does) tie.
    const [a, b] = comparedAnswers(prompt).map((answer) => answer?.includes("Ada") === true);
    return { text: a === b ? "TIE Both answers say the same." : a ? "A It names Ada." : "B It names Ada." };
  }
  if (last?.role === "tool") {
    const result = text(last);
    const number = /secret number: (\d+)/.exec(result)?.[1];
    return { text: number ?? "Done." };
  }
  if (prompt.includes("PONG")) return { text: "PONG", usage: { input: 50, output: 1 } };
  if (prompt.includes("hello.txt")) return { toolCalls: [{ name: "write", arguments: { path: "hello.txt", content: "hello world\n" } }] };
  if (prompt.includes("ledger.txt")) return { toolCalls: [{ name: "read", arguments: { path: "ledger.txt" } }] };
  if (prompt.includes("My name is Ada")) return { text: "Hello, Ada!" };
  if (prompt.includes("What is my name")) {
    const name = messages
      .map(text)
      .join("\n")
      .match(/My name is (\w+)/)?.[1];
    return { text: name ? `Your name is ${name}.` : "I don't know." };
  }
  return { text: "ok" };
}

function evalEnv(stateDir: string): Record<string, string> {
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(server, stateDir));
  return { OPENCLAW_STATE_DIR: stateDir };
}

beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server?.close();
});

describe("openclaw eval run", () => {
  it("runs the shipped suite through a gateway of its own: every task passes against a capable (fake) model, with pass@k, tokens and traces", async () => {
    server.setResponder(capableModel);
    const stateDir = makeTempDir();
    const { code, output } = await runCli(["eval", "run", SUITE, "--trials", "2", "--json"], evalEnv(stateDir), 120_000);
    expect(code, output).toBe(0);
    const report = JSON.parse(output.slice(output.indexOf("{")));
    expect(report.tasks.map((t: { name: string }) => t.name)).toEqual(["read-fixture", "remember-name", "reply-exact", "write-file"]);
    for (const task of report.tasks) {
      expect(task, JSON.stringify(task.results.flatMap((r: { graders: unknown[] }) => r.graders))).toMatchObject({ trials: 2, passes: 2, passAt1: 1, passAtK: 1, passHatK: 1 });
      expect(task.meanDurationMs).toBeGreaterThanOrEqual(0);
    }
    const pong = report.tasks.find((t: { name: string }) => t.name === "reply-exact");
    expect(pong.meanTokensIn).toBe(50);
    expect(report.saturated).toBe(true);
    expect(pong.infrastructureErrors).toBe(0);
    // Each trial ran in its own workspace and left its trace in the eval's state dir.
    const write = report.tasks.find((t: { name: string }) => t.name === "write-file");
    expect(fs.readFileSync(path.join(report.stateDir, "workspaces", "eval-t4-2", "hello.txt"), "utf8")).toBe("hello world\n");
    const traced = await runCli(["traces", "show", write.results[0].runIds[0], "--json"], { OPENCLAW_STATE_DIR: report.stateDir });
    expect(JSON.parse(traced.output).trace.toolCalls[0]).toMatchObject({ name: "write", decision: "allowed" });
  }, 180_000);

  it("reports failures with their graders and traces, and exits 1 when a task regressed against the baseline", async () => {
    const suite = makeTempDir("eval-suite-");
    fs.copyFileSync(path.join(SUITE, "reply-exact.yaml"), path.join(suite, "reply-exact.yaml"));
    const stateDir = makeTempDir();
    const env = evalEnv(stateDir);
    server.setResponder(capableModel);
    const good = await runCli(["eval", "run", suite, "--trials", "2", "--json"], env, 120_000);
    expect(good.code, good.output).toBe(0);
    const baseline = path.join(stateDir, "baseline.json");
    fs.writeFileSync(baseline, good.output.slice(good.output.indexOf("{")));

    // The model gets worse: it answers the wrong word.
    server.setResponder(() => ({ text: "PING" }));
    const bad = await runCli(["eval", "run", suite, "--trials", "2", "--baseline", baseline], env, 120_000);
    expect(bad.code, bad.output).toBe(1);
    expect(bad.output).toContain('✗ contains "PONG" — the reply was "PING"');
    expect(bad.output).toMatch(/trace: OPENCLAW_STATE_DIR=\S+ openclaw traces show [0-9a-f-]{36}/);
    expect(bad.output).toContain("REGRESSION reply-exact: pass@1 100% in the baseline, 0%");
    expect(bad.output).not.toContain("infrastructure");
    expect(bad.output).not.toContain("saturated");

    // The provider fails instead: the same regression, told apart as infrastructure, not the agent.
    server.setResponder(() => ({ status: 400, body: { error: { message: "the provider is overloaded", type: "invalid_request_error" } } }));
    const down = await runCli(["eval", "run", suite, "--trials", "2", "--baseline", baseline], env, 120_000);
    expect(down.code, down.output).toBe(1);
    expect(down.output).toMatch(/infrastructure: the model call to fake\/fake-model failed: .*the provider is overloaded/);
    expect(down.output).toContain("2 trial(s) failed on infrastructure, not on a grader");
    expect(down.output).toContain("REGRESSION reply-exact: pass@1 100% in the baseline, 0% (2 of its trials failed on infrastructure)");

    const missing = await runCli(["eval", "run", suite, "--baseline", path.join(stateDir, "nope.json")], env);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("--baseline");
    expect(missing.output).toContain("no such file");

    // A baseline that is not a report is refused before any trial spends a model call.
    const requestsBefore = server.requests.length;
    for (const [content, why] of [
      ["not json", "not an eval report (Unexpected token"],
      ['{"tasks":[{"task":"reply-exact"}]}', "not an eval report (tasks[0] has no name and passAt1)"],
    ]) {
      fs.writeFileSync(baseline, content!);
      const refused = await runCli(["eval", "run", suite, "--baseline", baseline], env);
      expect(refused.code, refused.output).toBe(1);
      expect(refused.output).toContain(`--baseline ${baseline}: ${why}`);
      expect(refused.output).not.toContain("Running");
    }
    expect(server.requests.length).toBe(requestsBefore);
  }, 240_000);

  it("fails a trial whose message outlasts timeoutSeconds with that timeout, and goes on with the suite", async () => {
    const suite = makeTempDir("eval-suite-");
    fs.writeFileSync(path.join(suite, "a-slow.yaml"), "prompt: take your time\ntimeoutSeconds: 1\ngraders:\n  - contains: done\n");
    fs.copyFileSync(path.join(SUITE, "reply-exact.yaml"), path.join(suite, "reply-exact.yaml"));
    const stateDir = makeTempDir();
    const env = evalEnv(stateDir);
    server.setResponder((request) =>
      text((request.body as { messages: Message[] }).messages.at(-1)).includes("take your time") ? { text: "done", delayMs: 4_000 } : capableModel(request),
    );
    const { code, output } = await runCli(["eval", "run", suite, "--json"], env, 120_000);
    expect(code, output).toBe(0);
    const report = JSON.parse(output.slice(output.indexOf("{")));
    const slow = report.tasks.find((t: { name: string }) => t.name === "a-slow");
    expect(slow).toMatchObject({ passes: 0, passAt1: 0 });
    expect(slow.results[0].error).toMatch(/^run [0-9a-f-]{36} ended timeout/);
    expect(slow.results[0].graders).toEqual([expect.objectContaining({ grader: "run ended ok", pass: false })]);
    // A run the agent let run out of time is the agent's failure, not infrastructure.
    expect(slow.results[0]).not.toHaveProperty("infrastructure");
    expect(report.saturated).toBe(false);
    expect(report.tasks.find((t: { name: string }) => t.name === "reply-exact")).toMatchObject({ passes: 1 });
    const traced = await runCli(["traces", "show", slow.results[0].runIds[0], "--json"], { OPENCLAW_STATE_DIR: report.stateDir });
    expect(JSON.parse(traced.output).trace.outcome).toBe("timeout");
  }, 180_000);

  it("compares each reply with a reference answer in both orders: a reply at least as good passes, a worse one fails saying how each order went", async () => {
    const suite = makeTempDir("eval-suite-");
    const task = (reference: string) => `prompt: "What is my name?"\ngraders:\n  - compare: { rubric: "Tells the user their name.", reference: "${reference}" }\n`;
    fs.writeFileSync(path.join(suite, "a-unknown.yaml"), task("I do not know your name."));
    fs.writeFileSync(path.join(suite, "b-known.yaml"), task("Your name is Ada."));
    server.setResponder(capableModel);
    const requestsBefore = server.requests.length;
    const { code, output } = await runCli(["eval", "run", suite, "--json"], evalEnv(makeTempDir()), 120_000);
    expect(code, output).toBe(0);
    const report = JSON.parse(output.slice(output.indexOf("{")));
    // The agent does not know the name: as good as "I do not know", worse than "Your name is Ada".
    expect(report.tasks[0].results[0].graders).toEqual([{ grader: 'compare "Tells the user their name." with the reference', pass: true }]);
    const [worse] = report.tasks[1].results[0].graders;
    expect(worse).toMatchObject({ grader: 'compare "Tells the user their name." with the reference', pass: false });
    expect(worse.detail).toMatch(
      /^the reply as A: worse \(judge \(run [0-9a-f-]{36}\): B It names Ada\.\); the reply as B: worse \(judge \(run [0-9a-f-]{36}\): A It names Ada\.\)$/,
    );
    const asked = server.requests.slice(requestsBefore).filter((r) => text((r.body as { messages: Message[] }).messages.at(-1)).includes("You compare two answers"));
    // Two trials, each judged twice: the reply first, then the reference first.
    expect(asked).toHaveLength(4);
    // Each answer stands between markers with a random tag, as data, never instructions.
    const pairs = asked.map((r) => comparedAnswers(text((r.body as { messages: Message[] }).messages.at(-1))));
    expect(pairs).toEqual(
      expect.arrayContaining([
        ["I don't know.", "I do not know your name."],
        ["I do not know your name.", "I don't know."],
      ]),
    );
  }, 180_000);

  it("bounds the rubric judge's run by the task's timeoutSeconds: a judge that does not answer fails that grader, and the suite goes on", async () => {
    const suite = makeTempDir("eval-suite-");
    fs.writeFileSync(
      path.join(suite, "a-judged.yaml"),
      'prompt: "My name is Ada. Just say hello."\ntimeoutSeconds: 2\ngraders:\n  - contains: Ada\n  - rubric: "It greets Ada."\n',
    );
    fs.copyFileSync(path.join(SUITE, "reply-exact.yaml"), path.join(suite, "reply-exact.yaml"));
    const stateDir = makeTempDir();
    const env = evalEnv(stateDir);
    server.setResponder((request) =>
      text((request.body as { messages: Message[] }).messages.at(-1)).includes("You grade an AI agent's answer") ? { text: "PASS", delayMs: 8_000 } : capableModel(request),
    );
    const started = Date.now();
    const { code, output } = await runCli(["eval", "run", suite, "--json"], env, 120_000);
    expect(code, output).toBe(0);
    const report = JSON.parse(output.slice(output.indexOf("{")));
    const judged = report.tasks.find((t: { name: string }) => t.name === "a-judged");
    expect(judged).toMatchObject({ passes: 0 });
    expect(judged.results[0].error).toBeUndefined();
    expect(judged.results[0].graders).toEqual([
      { grader: 'contains "Ada"', pass: true },
      { grader: 'rubric "It greets Ada."', pass: false, detail: expect.stringMatching(/^the judge's run [0-9a-f-]{36} ended timeout \(the task's timeoutSeconds, 2\)/) },
    ]);
    expect(report.tasks.find((t: { name: string }) => t.name === "reply-exact")).toMatchObject({ passes: 1 });
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 180_000);

  it("a rubric or a comparison with several judges is decided by their vote, each judge on its own model", async () => {
    const suite = makeTempDir("eval-suite-");
    const judges = "[fake/fake-model, fake/judge-strict, fake/judge-lenient]";
    fs.writeFileSync(path.join(suite, "a-greets.yaml"), `prompt: "My name is Ada. Just say hello."\ngraders:\n  - rubric: "It greets Ada."\n    judges: ${judges}\n`);
    fs.writeFileSync(path.join(suite, "b-ignores.yaml"), `prompt: "What is my name?"\ngraders:\n  - rubric: "It names the user."\n    judges: ${judges}\n`);
    fs.writeFileSync(
      path.join(suite, "c-compares.yaml"),
      `prompt: "What is my name?"\ngraders:\n  - compare: { rubric: "Tells the user their name.", reference: "Your name is Ada.", judges: ${judges} }\n`,
    );
    const stateDir = makeTempDir();
    const env = evalEnv(stateDir);
    const judgedBy: string[] = [];
    const comparedBy: string[] = [];
    server.setResponder((request) => {
      const body = request.body as { model: string; messages: Message[] };
      if (text(body.messages.at(-1)).includes("You compare two answers")) {
        comparedBy.push(body.model);
        // The strict judge always picks A (the position, not the answer), the lenient one calls a tie.
        if (body.model === "judge-strict") return { text: "A The first one." };
        if (body.model === "judge-lenient") return { text: "TIE Both are fine." };
        return capableModel(request);
      }
      if (!text(body.messages.at(-1)).includes("You grade an AI agent's answer")) return capableModel(request);
      judgedBy.push(body.model);
      // The strict judge fails everything, the lenient one passes everything; the default judge decides.
      if (body.model === "judge-strict") return { text: "FAIL Not convinced." };
      if (body.model === "judge-lenient") return { text: "PASS Looks fine." };
      return capableModel(request);
    });
    const { code, output } = await runCli(["eval", "run", suite, "--json"], env, 120_000);
    expect(code, output).toBe(0);
    const report = JSON.parse(output.slice(output.indexOf("{")));
    const greets = report.tasks.find((t: { name: string }) => t.name === "a-greets");
    expect(greets.results[0].graders).toEqual([{ grader: 'rubric "It greets Ada." by 3 judges', pass: true }]);
    const ignores = report.tasks.find((t: { name: string }) => t.name === "b-ignores");
    expect(ignores.results[0].graders).toEqual([
      {
        grader: 'rubric "It names the user." by 3 judges',
        pass: false,
        detail: expect.stringMatching(
          /^1 of 3 judges PASS: fake\/fake-model: FAIL \(judge \(run [0-9a-f-]{36}\): FAIL It does not name Ada\.\); fake\/judge-strict: FAIL .*; fake\/judge-lenient: PASS /,
        ),
      },
    ]);
    expect(judgedBy.sort()).toEqual(["fake-model", "fake-model", "judge-lenient", "judge-lenient", "judge-strict", "judge-strict"]);
    // A compare grader's judges vote too, each comparing in both orders on its own model.
    const compares = report.tasks.find((t: { name: string }) => t.name === "c-compares");
    expect(compares.results[0].graders).toEqual([
      {
        grader: 'compare "Tells the user their name." with the reference by 3 judges',
        pass: false,
        detail: expect.stringMatching(
          /^1 of 3 judges find the reply at least as good: fake\/fake-model: FAIL \(the reply as A: worse .*; fake\/judge-strict: FAIL \(.*the judge chose A both times.*; fake\/judge-lenient: PASS /,
        ),
      },
    ]);
    expect(comparedBy.sort()).toEqual(["fake-model", "fake-model", "judge-lenient", "judge-lenient", "judge-strict", "judge-strict"]);

    fs.writeFileSync(path.join(suite, "c-bad.yaml"), 'prompt: hi\ngraders:\n  - rubric: "x"\n    judges: [fake/fake-model]\n');
    const refused = await runCli(["eval", "run", suite], env, 60_000);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("c-bad.yaml");
  }, 180_000);

  it("noApprovalRequested fails a trial whose exec command your tools.exec policy would ask about: the eval gateway denies it at once", async () => {
    const suite = makeTempDir("eval-suite-");
    fs.writeFileSync(path.join(suite, "quiet.yaml"), "prompt: run it\ntimeoutSeconds: 20\nagent:\n  tools: { allow: [exec] }\ngraders:\n  - noApprovalRequested: true\n");
    const stateDir = makeTempDir();
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(server, stateDir, { tools: { exec: { ask: "always" } } }));
    server.setResponder((request) =>
      (request.body as { messages: Message[] }).messages.at(-1)?.role === "tool"
        ? { text: "Done." }
        : { toolCalls: [{ name: "exec", arguments: { command: "echo needs-approval" } }] },
    );
    const started = Date.now();
    const { code, output } = await runCli(["eval", "run", suite, "--json"], { OPENCLAW_STATE_DIR: stateDir }, 120_000);
    expect(code, output).toBe(0);
    const [task] = JSON.parse(output.slice(output.indexOf("{"))).tasks;
    expect(task.results[0].error).toBeUndefined();
    expect(task.results[0].graders).toEqual([{ grader: "noApprovalRequested", pass: false, detail: "approval asked for: echo needs-approval" }]);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 180_000);

  it("keeps your credentials out of the eval state dir's files: an env-referenced key reaches the eval gateway through its environment", async () => {
    const suite = makeTempDir("eval-suite-");
    fs.copyFileSync(path.join(SUITE, "reply-exact.yaml"), path.join(suite, "reply-exact.yaml"));
    const stateDir = makeTempDir();
    const config = JSON.parse(fakeModelConfig(server, stateDir));
    config.models.providers.fake.apiKey = "${EVAL_FAKE_API_KEY}";
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
    server.setResponder(capableModel);
    const secret = "sk-eval-secret-0123456789";
    const { code, output } = await runCli(["eval", "run", suite, "--json"], { OPENCLAW_STATE_DIR: stateDir, EVAL_FAKE_API_KEY: secret }, 120_000);
    expect(code, output).toBe(0);
    const report = JSON.parse(output.slice(output.indexOf("{")));
    expect(report.tasks[0]).toMatchObject({ passes: 1 });
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${secret}`);
    const written = fs.readdirSync(report.stateDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && !e.name.startsWith("traces.sqlite"));
    for (const entry of written) expect(fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8"), entry.name).not.toContain(secret);
  }, 180_000);

  it("refuses an invalid task file, naming the file and the field", async () => {
    const suite = makeTempDir("eval-suite-");
    fs.writeFileSync(path.join(suite, "broken.yaml"), "prompt: hi\ngraders:\n  - containz: x\n");
    const { code, output } = await runCli(["eval", "run", suite], { OPENCLAW_STATE_DIR: makeTempDir() });
    expect(code).toBe(1);
    expect(output).toContain("broken.yaml");
    expect(output).toContain("/graders/0");
  });

  it("refuses a file grader that would check less than it says: contains with equals, a condition on an absent file, a path out of the workspace", async () => {
    const cases = [
      ["both.yaml", "{ path: a.txt, contains: x, equals: y }", "give one of contains or equals"],
      ["absent.yaml", "{ path: a.txt, exists: false, contains: x }", "exists: false checks that the file is not there"],
      ["outside.yaml", "{ path: ../a.txt }", "leaves the trial's workspace"],
    ];
    for (const [name, grader, message] of cases) {
      const suite = makeTempDir("eval-suite-");
      fs.writeFileSync(path.join(suite, name!), `prompt: hi\ngraders:\n  - file: ${grader}\n`);
      const { code, output } = await runCli(["eval", "run", suite], { OPENCLAW_STATE_DIR: makeTempDir() });
      expect(code, output).toBe(1);
      expect(output).toContain(`${name}: graders[0] file:`);
      expect(output).toContain(message);
      expect(output).not.toContain("Running");
    }
  });
});
