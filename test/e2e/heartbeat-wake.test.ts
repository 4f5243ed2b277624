import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * A background command the main session started ends: the agent's heartbeat (every 30 min, so
 * not due during the test) beats at once with the ending as a system event, and its answer
 * reaches the heartbeat's Telegram chat. Real gateway process, real shell command.
 */

const CHAT = 501;
const servers = useFakeServers({ telegram: true });

const lastRole = (req: RecordedRequest): string => req.body.messages?.at(-1)?.role ?? "";

describe("heartbeat early wake", { timeout: 120_000 }, () => {
  it("a background exec of the main session that ends wakes the heartbeat now, with the ending in its message", async () => {
    const heartbeatMessages: string[] = [];
    const stateDir = makeTempDir("openclaw-heartbeat-wake-");
    const goFile = path.join(stateDir, "go");
    servers.model.setResponder((req) => {
      const text = lastUserText(req);
      if (lastRole(req) === "tool") return { text: "Started the build in the background." };
      // The command ends once the test says so: after the turn that started it is over.
      if (text.includes("Start the build"))
        return { toolCalls: [{ name: "exec", arguments: { command: `while [ ! -f ${goFile} ]; do sleep 0.1; done; echo build finished`, background: true } }] };
      if (text.includes("System events since the last heartbeat")) {
        heartbeatMessages.push(text);
        return { text: "The build finished." };
      }
      return { text: "HEARTBEAT_OK" };
    });
    const channels = {
      telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)] }),
    };
    const agents = { defaults: { model: { primary: "fake/fake-model" }, heartbeat: { every: "30m", target: "telegram", to: String(CHAT) } } };
    const config = JSON.parse(fakeModelConfig(servers.model, stateDir, { channels }));
    config.agents.defaults = { ...config.agents.defaults, ...agents.defaults };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) };
    // No heartbeat has run yet: the answer is null, not an empty object.
    expect((await runCli(["gateway", "call", "last-heartbeat"], env)).output.trim()).toBe("null");

    const sent = await runCli(["gateway", "call", "chat.send", "--params", JSON.stringify({ sessionKey: "main", message: "Start the build", idempotencyKey: "build-1" })], env);
    expect(sent.code, sent.output).toBe(0);
    const waited = await runCli(["gateway", "call", "agent.wait", "--params", JSON.stringify({ runId: "build-1", timeoutMs: 30_000 })], env);
    expect(JSON.parse(waited.output)).toMatchObject({ status: "ok" });
    expect(servers.telegram.messages(CHAT)).toEqual([]);
    fs.writeFileSync(goFile, "");
    await servers.telegram.waitFor(() => servers.telegram.messages(CHAT).length === 1, 30_000);
    expect(String(servers.telegram.messages(CHAT)[0]!.text)).toBe("The build finished.");
    expect(heartbeatMessages).toHaveLength(1);
    expect(heartbeatMessages[0]).toMatch(/Background command proc_[0-9a-f]+ \(while \[ ! -f .*\) exited with code 0\. Output ends: build finished/);
    const last = JSON.parse((await runCli(["gateway", "call", "last-heartbeat"], env)).output);
    expect(last).toMatchObject({ agentId: "main", status: "sent", channel: "telegram", to: String(CHAT) });
  });
  it("a heartbeat that does not beat on a schedule is still woken, and notifyOnExitEmptySuccess wakes it for a quiet success", async () => {
    const heartbeatMessages: string[] = [];
    const stateDir = makeTempDir("openclaw-heartbeat-wake-off-");
    const goFile = path.join(stateDir, "go");
    servers.model.setResponder((req) => {
      const text = lastUserText(req);
      if (lastRole(req) === "tool") return { text: "Started it quietly." };
      if (text.includes("Start the quiet job")) return { toolCalls: [{ name: "exec", arguments: { command: `while [ ! -f ${goFile} ]; do sleep 0.1; done`, background: true } }] };
      if (text.includes("System events since the last heartbeat")) {
        heartbeatMessages.push(text);
        return { text: "The quiet job is done." };
      }
      return { text: "HEARTBEAT_OK" };
    });
    const config = JSON.parse(
      fakeModelConfig(servers.model, stateDir, {
        channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)] }) },
        tools: { exec: { notifyOnExitEmptySuccess: true } },
      }),
    );
    config.agents.defaults = { ...config.agents.defaults, model: { primary: "fake/fake-model" }, heartbeat: { every: "0m", target: "telegram", to: String(CHAT) } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) };
    const sent = await runCli(["gateway", "call", "chat.send", "--params", JSON.stringify({ sessionKey: "main", message: "Start the quiet job", idempotencyKey: "quiet-1" })], env);
    expect(sent.code, sent.output).toBe(0);
    const waited = await runCli(["gateway", "call", "agent.wait", "--params", JSON.stringify({ runId: "quiet-1", timeoutMs: 30_000 })], env);
    expect(JSON.parse(waited.output)).toMatchObject({ status: "ok" });
    const before = servers.telegram.messages(CHAT).length;
    fs.writeFileSync(goFile, "");
    await servers.telegram.waitFor(() => servers.telegram.messages(CHAT).length === before + 1, 30_000);
    expect(String(servers.telegram.messages(CHAT).at(-1)!.text)).toBe("The quiet job is done.");
    expect(heartbeatMessages).toHaveLength(1);
    expect(heartbeatMessages[0]).toMatch(/Background command proc_[0-9a-f]+ \(while .*\) exited with code 0\./);
  });
});
