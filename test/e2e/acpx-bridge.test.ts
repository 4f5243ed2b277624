import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { acpxNode, runAcpx, stopQueueOwners, type AcpxRun } from "../helpers/acpx.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { CLI, cleanEnv, makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

let server: FakeModelServer;
let gw: GatewayProcess;
let node: string;
const projectDir = makeTempDir("acpx-project-");
const home = makeTempDir("acpx-home-");
const binDir = makeTempDir("acpx-bin-");
/** acpx's queue owner (which keeps `openclaw acp` running between prompts) exits this long after its last prompt. */
const TTL = "120";
/** Each acpx run starts a Node process or two; on a loaded 2-core machine a run takes seconds. */
const ACPX_TEST_TIMEOUT_MS = 240_000;

beforeAll(async () => {
  node = acpxNode();
  server = await startFakeModelServer();
  const stateDir = makeTempDir();
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(server, stateDir) } });
  // acpx's built-in `openclaw` agent runs `openclaw acp` from PATH: this checkout's CLI.
  fs.writeFileSync(path.join(binDir, "openclaw"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
}, 300_000);
afterAll(async () => {
  // A test that failed half-way may leave acpx's queue owner running: its lock file names it.
  stopQueueOwners(home);
  await gw?.stop();
  await server?.close();
});
beforeEach(() => server.reset());

const env = () => cleanEnv({ HOME: home, PATH: `${binDir}${path.delimiter}${process.env.PATH}`, OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token });
const acpx = (...args: string[]) => runAcpx(node, args, { cwd: projectDir, env: env() });

/** acpx's `--format json` output: the ACP messages as they crossed the wire, one per line. */
function messages(stdout: string): any[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}
const answerText = (stdout: string) =>
  messages(stdout)
    .filter((m) => m.method === "session/update" && m.params.update.sessionUpdate === "agent_message_chunk")
    .map((m) => m.params.update.content.text)
    .join("");
const stopReasons = (stdout: string) => messages(stdout).flatMap((m) => (m.result?.stopReason ? [m.result.stopReason] : []));
const modelCalls = () => server.requests.filter((r) => r.path.endsWith("/chat/completions"));
const lastUserText = (request: { body: any }) => {
  const user = request.body.messages.filter((m: any) => m.role === "user").at(-1);
  return typeof user.content === "string" ? user.content : user.content.map((p: any) => p.text ?? "").join("");
};

async function succeeded(run: AcpxRun): Promise<string> {
  const code = await run.exited;
  if (code !== 0) throw new Error(`acpx exited ${code}\nstdout: ${run.stdout()}\nstderr: ${run.stderr()}`);
  return run.stdout();
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("acpx (the real ACP client from npm) drives openclaw acp", () => {
  it(
    "exec: initialize, session/new and a prompt whose answer streams back in chunks",
    async () => {
      server.enqueue({ text: "The answer is forty-two.", chunkDelayMs: 5 });
      const out = await succeeded(acpx("--format", "json", "openclaw", "exec", "what is the answer?"));

      const sent = messages(out);
      expect(sent.find((m) => m.result?.agentInfo)?.result.agentInfo.name).toBe("openclaw");
      expect(sent.some((m) => m.method === "session/new")).toBe(true);
      expect(sent.filter((m) => m.method === "session/update").length).toBeGreaterThan(1);
      expect(answerText(out)).toBe("The answer is forty-two.");
      expect(stopReasons(out)).toEqual(["end_turn"]);
      expect(lastUserText(modelCalls()[0]!)).toBe(`[Working directory: ${projectDir}]\n\nwhat is the answer?`);
    },
    ACPX_TEST_TIMEOUT_MS,
  );

  it(
    "a saved session: prompts from separate acpx runs resume it, cancel stops a running turn, close ends the bridge",
    async () => {
      // Every acpx process below is separate; acpx keeps the session and reattaches through its
      // queue owner (which starts `openclaw acp` and resumes the session with session/resume).
      const sessionId = (await succeeded(acpx("openclaw", "sessions", "new"))).trim().split("\n")[0]!;
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

      server.enqueue({ text: "Remembered: blue." });
      const first = await succeeded(acpx("--format", "json", "--ttl", TTL, "openclaw", "remember blue"));
      expect(answerText(first)).toBe("Remembered: blue.");
      expect(messages(first).some((m) => m.method === "session/resume" && m.params.sessionId === sessionId)).toBe(true);

      server.enqueue({ text: "this reply takes far too long", delayMs: 60_000 });
      const slow = acpx("--format", "json", "--ttl", TTL, "openclaw", "slow one");
      await until(() => modelCalls().length === 2, "the slow prompt to reach the model");
      expect(await succeeded(acpx("openclaw", "cancel"))).toContain("cancel requested");
      const cancelled = await succeeded(slow);
      expect(messages(cancelled).some((m) => m.method === "session/cancel")).toBe(true);
      expect(stopReasons(cancelled)).toEqual(["cancelled"]);

      // The gateway run was aborted, and it is the same gateway session: the model sees the
      // earlier exchange.
      server.enqueue({ text: "Still blue." });
      const after = await succeeded(acpx("--format", "json", "--ttl", TTL, "openclaw", "which colour?"));
      expect(answerText(after)).toBe("Still blue.");
      const history = modelCalls()
        .at(-1)!
        .body.messages.map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
        .join("\n");
      expect(history).toContain("remember blue");
      expect(history).toContain("Remembered: blue.");

      const status = await succeeded(acpx("openclaw", "status"));
      expect(status).toContain(`session: ${sessionId}`);
      expect(status).toContain("status: running");
      const bridgePid = Number(/^pid: (\d+)$/m.exec(status)![1]);
      expect(isAlive(bridgePid)).toBe(true);
      await succeeded(acpx("openclaw", "sessions", "close"));
      await until(() => !isAlive(bridgePid), "openclaw acp to exit after acpx closed the session");
    },
    ACPX_TEST_TIMEOUT_MS,
  );
});
