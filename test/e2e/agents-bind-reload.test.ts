import { execFile } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { CLI, cleanEnv, makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `openclaw agents add` and `agents bind` against a running gateway: it takes the new agent and
 * binding at its config reload (no restart), and the next Telegram DM is answered by that agent.
 * With `gateway.reload.mode: off` the commands say what applies the change instead.
 */

const OWNER = 111;
const servers = useFakeServers();

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: cleanEnv(env), timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const RELOADS = "The running gateway applies this at its config reload; no restart needed.\n";

describe("agents add / bind with a gateway running", () => {
  it("the gateway routes the next Telegram DM to the agent `agents bind` bound, after its config reload", { timeout: 40_000 }, async () => {
    const bot = await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "answered" }));
    const stateDir = makeTempDir();
    const file = path.join(stateDir, "openclaw.json");
    const config = fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramChannelConfig(bot, { allowFrom: [String(OWNER)] }) } });
    const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    await gw.waitForOutput(/channel account started/, 10_000);
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token!, OPENCLAW_GATEWAY_PORT: String(gw.port) };
    const sessionAgents = async () => {
      const { sessions } = JSON.parse((await runCli(["sessions", "--json"], env)).output) as { sessions: { key: string }[] };
      return sessions.map((s) => s.key).sort();
    };

    bot.pushMessage({ chatId: OWNER, fromId: OWNER, text: "before", messageId: 1 });
    await bot.waitFor(() => bot.messages(OWNER).length === 1, 10_000);
    expect(await sessionAgents()).toEqual(["agent:main:main"]);

    const workspace = path.join(stateDir, "ws-work");
    const added = await cli(["agents", "add", "work", "--workspace", workspace], env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout.endsWith(RELOADS)).toBe(true);
    const bound = await cli(["agents", "bind", "--agent", "work", "--bind", "telegram"], env);
    expect(bound).toEqual({ code: 0, stdout: `Updated config: ${file}\nAdded bindings:\n- telegram\n${RELOADS}`, stderr: "" });
    await gw.waitForOutput(/"changedPaths":\[[^\]]*"bindings[^\n]*"msg":"config reloaded"/, 10_000);

    bot.pushMessage({ chatId: OWNER, fromId: OWNER, text: "after", messageId: 2 });
    await bot.waitFor(() => bot.messages(OWNER).length === 2, 10_000);
    expect(await sessionAgents()).toEqual(["agent:main:main", "agent:work:main"]);
    expect(gw.output()).not.toContain("requires gateway restart");
  });

  it("with gateway.reload.mode off they say to send SIGHUP or restart; SIGHUP applies the change", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir();
    const config = fakeModelConfig(servers.model, stateDir, { gateway: { reload: { mode: "off" } } });
    const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    const env = { OPENCLAW_STATE_DIR: stateDir };
    const added = await cli(["agents", "add", "work", "--workspace", path.join(stateDir, "ws-work")], env);
    expect(added.code).toBe(0);
    expect(added.stdout).not.toContain(RELOADS);
    expect(added.stderr).toBe(
      "The running gateway does not reload its config (gateway.reload.mode: off): send it SIGHUP (kill -HUP <pid in gateway.lock>) or run openclaw gateway restart to apply this.\n",
    );
    gw.proc.kill("SIGHUP");
    await gw.waitForOutput(/"changedPaths":\[[^\]]*"agents\.entries\.work[^\n]*"msg":"config reloaded"/, 10_000);
  });
});
