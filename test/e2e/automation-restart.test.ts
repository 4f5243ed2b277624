import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lastUserText } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, waitUntil } from "../helpers/reliability.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * Automation across a killed gateway (real processes): a cron run cut by SIGKILL is recorded once
 * as interrupted and the job goes on; and the bundled session-memory hook saves a session on /new.
 */

const servers = useFakeServers();

async function start(stateDir: string, token: string, extra: Record<string, unknown> = {}): Promise<GatewayProcess> {
  const gw = await startGateway({ stateDir, token, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, extra) } });
  return servers.keep(gw);
}

const cli = (gw: GatewayProcess, args: string[]) => runCli(args, { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) });

describe("automation across a restart", { timeout: 120_000 }, () => {
  it("a cron run cut by SIGKILL is recorded once as interrupted after the restart, and the job stays on", async () => {
    const stateDir = makeTempDir("openclaw-cron-kill-");
    const token = "kill-token-123";
    servers.model.setResponder(() => ({ text: "slow report", delayMs: 120_000 }));
    let gw = await start(stateDir, token);
    const added = await cli(gw, ["cron", "add", "--name", "nightly", "--every", "1d", "--message", "write the report", "--json"]);
    expect(added.code, added.output).toBe(0);
    const jobId = JSON.parse(added.output).job.id;
    const run = await cli(gw, ["cron", "run", jobId, "--json"]);
    expect(JSON.parse(run.output)).toMatchObject({ ran: true });
    await waitUntil(() => chatRequests(servers.model).length === 1, 30_000, "the run's model call");
    await servers.kill(gw);
    servers.model.setResponder(() => ({ text: "ok" }));
    for (let restart = 0; restart < 2; restart++) {
      gw = await start(stateDir, token);
      let runs: { status: string; error?: string }[] = [];
      for (const deadline = Date.now() + 15_000; Date.now() < deadline && runs.length === 0; ) {
        runs = JSON.parse((await cli(gw, ["cron", "runs", jobId, "--json"])).output).entries;
      }
      expect(runs).toEqual([expect.objectContaining({ status: "interrupted", error: expect.stringMatching(/gateway stopped during this run/) })]);
      const job = JSON.parse((await cli(gw, ["gateway", "call", "cron.get", "--params", JSON.stringify({ id: jobId })])).output);
      expect(job).toMatchObject({ enabled: true, state: { lastStatus: "interrupted" } });
      expect(job.state.runningAtMs).toBeUndefined();
      expect(job.state.nextRunAtMs).toBeGreaterThan(Date.now());
      await gw.stop("SIGTERM");
    }
  });

  it("a run `cron run` accepted while another job held the only slot starts after a SIGKILL, once, with the runId it was given", async () => {
    const stateDir = makeTempDir("openclaw-cron-queued-kill-");
    const token = "queued-kill-token-1";
    servers.model.setResponder((request) => (lastUserText(request).includes("slow job") ? { text: "slow", delayMs: 120_000 } : { text: "quick report" }));
    let gw = await start(stateDir, token);
    const addJob = async (name: string, message: string) => {
      const added = await cli(gw, ["cron", "add", "--name", name, "--every", "1d", "--message", message, "--json"]);
      expect(added.code, added.output).toBe(0);
      return JSON.parse(added.output).job.id as string;
    };
    const slowId = await addJob("slow", "the slow job");
    const quickId = await addJob("quick", "the quick job");
    expect(JSON.parse((await cli(gw, ["cron", "run", slowId, "--json"])).output)).toMatchObject({ ran: true });
    await waitUntil(() => chatRequests(servers.model).length === 1, 30_000, "the slow run's model call");
    const queued = JSON.parse((await cli(gw, ["cron", "run", quickId, "--json"])).output);
    expect(queued).toMatchObject({ ran: true, runId: expect.any(String) });
    await servers.kill(gw);
    gw = await start(stateDir, token);
    let runs: { runId: string; status: string }[] = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && runs.length === 0; ) {
      runs = JSON.parse((await cli(gw, ["cron", "runs", quickId, "--json"])).output).entries;
    }
    expect(runs).toEqual([expect.objectContaining({ runId: queued.runId, status: "ok" })]);
    expect(chatRequests(servers.model).filter((r) => lastUserText(r).includes("the quick job"))).toHaveLength(1);
  });

  it("with session-memory enabled by `openclaw hooks enable`, /new saves the session to memory/ in the workspace", async () => {
    const stateDir = makeTempDir("openclaw-hooks-e2e-");
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(servers.model, stateDir));
    const listed = await runCli(["hooks", "list", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(JSON.parse(listed.output).hooks).toEqual(expect.arrayContaining([expect.objectContaining({ name: "session-memory", source: "bundled", enabled: false })]));
    const enabled = await runCli(["hooks", "enable", "session-memory"], { OPENCLAW_STATE_DIR: stateDir });
    expect(enabled.code, enabled.output).toBe(0);
    const unknown = await runCli(["hooks", "enable", "nope"], { OPENCLAW_STATE_DIR: stateDir });
    expect(unknown.output).toMatch(/no hook named "nope"/);
    const config = JSON.parse(fs.readFileSync(path.join(stateDir, "openclaw.json"), "utf8"));
    servers.model.setResponder(() => ({ text: "noted: the cat is called Miso" }));
    const gw = servers.keep(await startGateway({ stateDir, token: "hooks-token-1", configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    const turn = await cli(gw, ["agent", "-m", "remember: my cat is called Miso"]);
    expect(turn.code, turn.output).toBe(0);
    const reset = await cli(gw, ["agent", "-m", "/new"]);
    expect(reset.code, reset.output).toBe(0);
    const memoryDir = path.join(stateDir, "workspace", "memory");
    await waitUntil(() => fs.existsSync(memoryDir) && fs.readdirSync(memoryDir).some((f) => /^\d{4}-\d{2}-\d{2}-\d{4}\.md$/.test(f)), 20_000, "the session-memory file");
    const file = fs.readdirSync(memoryDir).find((f) => /^\d{4}-\d{2}-\d{2}-\d{4}\.md$/.test(f))!;
    const text = fs.readFileSync(path.join(memoryDir, file), "utf8");
    expect(text).toContain("**user:** remember: my cat is called Miso");
    expect(text).toContain("**assistant:** noted: the cat is called Miso");
  });
});
