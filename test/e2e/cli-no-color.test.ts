import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { CLI, cleanEnv, makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";

const servers = useFakeServers();

/** Runs the CLI on a pseudo-terminal (util-linux `script`), where colour is on unless turned off. */
function onTerminal(args: string[], env: Record<string, string>, prefix: string[] = []): Promise<string> {
  const command = [...prefix, process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], { env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on("close", () => resolve(output)));
}

const ESC = "\u001b[";

describe("--no-color and NO_COLOR", () => {
  let env: Record<string, string>;
  let runId: string | undefined;

  beforeAll(async () => {
    const stateDir = makeTempDir("openclaw-no-color-");
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(servers.model, stateDir));
    env = { OPENCLAW_STATE_DIR: stateDir };
    // A run through a gateway leaves a trace for `traces show`.
    const gw = await startGateway({ stateDir });
    try {
      servers.model.enqueue({ text: "Hello." });
      const turn = await runCli(["agent", "-m", "hi"], { ...env, OPENCLAW_GATEWAY_TOKEN: gw.token! }, 30_000);
      expect(turn.code, turn.output).toBe(0);
      for (let i = 0; i < 50 && !runId; i++) {
        const list = await runCli(["traces", "list", "--json"], env);
        runId = list.code === 0 ? JSON.parse(list.output).traces[0]?.runId : undefined;
        if (!runId) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await gw.stop();
    }
    expect(runId).toBeDefined();
  }, 60_000);

  it("traces show is coloured on a terminal, and not with --no-color (anywhere on the line) or NO_COLOR=1", async () => {
    const coloured = await onTerminal(["traces", "show", runId!], env);
    expect(coloured).toContain(runId!);
    expect(coloured).toContain(ESC);
    for (const plain of [
      await onTerminal(["--no-color", "traces", "show", runId!], env),
      await onTerminal(["traces", "show", runId!, "--no-color"], env),
      await onTerminal(["traces", "show", runId!], { ...env, NO_COLOR: "1" }),
    ]) {
      expect(plain).toContain(runId!);
      expect(plain).not.toContain(ESC);
    }
  }, 30_000);

  it("the gateway's console log on a terminal is coloured, and not with --no-color", async () => {
    // Each gateway runs six seconds on the terminal, then gets Ctrl-C.
    const run = (flags: string[]) =>
      onTerminal([...flags, "gateway", "run", "--port", "0"], { OPENCLAW_STATE_DIR: makeTempDir("openclaw-no-color-gw-"), OPENCLAW_GATEWAY_TOKEN: "t" }, [
        "timeout",
        "-s",
        "INT",
        "6",
      ]);
    const [coloured, plain] = await Promise.all([run([]), run(["--no-color"])]);
    expect(coloured).toContain("gateway listening");
    expect(coloured).toContain(ESC);
    expect(plain).toContain("gateway listening");
    expect(plain).not.toContain(ESC);
  }, 30_000);
});
