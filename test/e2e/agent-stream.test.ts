import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, cleanEnv, makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

const servers = useFakeServers();

function stateWithModel(): { stateDir: string; env: Record<string, string> } {
  const stateDir = makeTempDir();
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(servers.model, stateDir));
  return { stateDir, env: { OPENCLAW_STATE_DIR: stateDir } };
}

/** Runs the CLI on a pseudo-terminal (util-linux `script`), as a user at a shell would. */
function runOnTerminal(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], { env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output: output.replace(/\r\n/g, "\n") })));
}

const toolThenAnswer = () =>
  servers.model.enqueue({ text: "Let me look.", toolCalls: [{ name: "write", arguments: { path: "notes/todo.txt", content: "milk" } }] }, { text: "Saved your note." });

describe("openclaw agent on a terminal", () => {
  it("--local streams the answer and shows each tool call as one line", async () => {
    const { env } = stateWithModel();
    toolThenAnswer();
    const res = await runOnTerminal(["agent", "--local", "-m", "save milk"], env);
    expect(res.code).toBe(0);
    expect(res.output).toContain("Let me look.\n· write notes/todo.txt\nSaved your note.\n");
  });

  it("through the gateway the same", async () => {
    const { stateDir, env } = stateWithModel();
    const gw = await startGateway({ stateDir });
    try {
      toolThenAnswer();
      const res = await runOnTerminal(["agent", "-m", "save milk", "--port", String(gw.port), "--token", gw.token!], env);
      expect(res.code).toBe(0);
      expect(res.output).toContain("Let me look.\n· write notes/todo.txt\nSaved your note.\n");
    } finally {
      await gw.stop();
    }
  }, 120_000);

  it("without a terminal only the answer is printed", async () => {
    const { env } = stateWithModel();
    toolThenAnswer();
    const res = await runCli(["agent", "--local", "-m", "save milk"], env, 30_000);
    expect(res.code).toBe(0);
    expect(res.output).toBe("Saved your note.\n");
  });
});

describe("openclaw agent --local sessions", () => {
  it("--session-key continues the same history as the gateway path, in one JSON shape", async () => {
    const { stateDir, env } = stateWithModel();
    servers.model.enqueue({ text: "Noted: your name is Ada." }, { text: "Your name is Ada." }, { text: "Still Ada." });
    const first = await runCli(["agent", "--local", "--json", "--session-key", "notes", "-m", "my name is Ada"], env, 30_000);
    expect(first.code).toBe(0);
    const local = JSON.parse(first.output);
    expect(local).toMatchObject({ status: "ok", payloads: [{ text: "Noted: your name is Ada.", mediaUrl: null }], meta: { agentMeta: { sessionKey: "agent:main:notes" } } });

    const second = await runCli(["agent", "--local", "--json", "--session-key", "notes", "-m", "what is my name?"], env, 30_000);
    expect(second.code).toBe(0);
    expect(JSON.stringify(servers.model.requests[1]!.body)).toContain("Noted: your name is Ada.");

    const gw = await startGateway({ stateDir });
    try {
      const refused = await runCli(["agent", "--local", "-m", "hi"], env);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`a gateway (pid ${gw.proc.pid}`);
      expect(refused.output).toContain("drop --local");

      const third = await runCli(["agent", "--json", "--session-key", "notes", "-m", "and now?", "--port", String(gw.port), "--token", gw.token!], env, 30_000);
      expect(third.code).toBe(0);
      const remote = JSON.parse(third.output);
      expect(Object.keys(remote).sort()).toEqual(Object.keys(local).sort());
      expect(Object.keys(remote.meta).sort()).toEqual(Object.keys(local.meta).sort());
      const seen = JSON.stringify(servers.model.requests[2]!.body);
      expect(seen).toContain("my name is Ada");
      expect(seen).toContain("Your name is Ada.");
    } finally {
      await gw.stop();
    }
  }, 120_000);
});
