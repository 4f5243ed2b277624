import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastUserText, waitUntil } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `tools.elevated` and `/elevated` in a real gateway whose every session is sandboxed in
 * bubblewrap: a sender on `tools.elevated.allowFrom.telegram` has exec run on the host (it reads a
 * file in the state dir, which the sandbox hides) at the session's level, can turn it off, and can
 * run one message at another level; an owner not on the list stays in the sandbox and is told the
 * failing gate. Operators' `chat.send` is `webchat`, admitted by `"*"`.
 */

const ELEVATED_OWNER = 931;
const OTHER_OWNER = 932;
const MARKER = "host-marker-7f3a";

let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let rpc: Rpc;
let messageId = 1;
let markerPath: string;

const lastRole = (req: RecordedRequest): string => req.body.messages?.at(-1)?.role ?? "";

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => {
    if (lastRole(req) === "tool") {
      const result = String(req.body.messages.at(-1).content);
      const said = result.includes("[elevated: ran on the host, outside the sandbox]") ? " (said elevated)" : "";
      return { text: `ran on: ${result.includes(MARKER) ? "host" : "sandbox"}${said}` };
    }
    if (lastUserText(req).includes("probe")) return { toolCalls: [{ name: "exec", arguments: { command: `cat ${markerPath} 2>&1 || true` } }] };
    return { text: "ok" };
  });
  telegram = await startFakeTelegram({ botUsername: "claw_bot" });
  const stateDir = makeTempDir();
  markerPath = path.join(stateDir, "marker.txt");
  fs.writeFileSync(markerPath, MARKER);
  const config = JSON.parse(
    fakeModelConfig(model, stateDir, {
      channels: { telegram: telegramChannelConfig(telegram, { dmPolicy: "allowlist", allowFrom: [String(ELEVATED_OWNER), String(OTHER_OWNER)] }) },
      commands: { ownerAllowFrom: [`telegram:${ELEVATED_OWNER}`, `telegram:${OTHER_OWNER}`], bash: true, bashForegroundMs: 30_000 },
      tools: { elevated: { allowFrom: { telegram: [`id:${ELEVATED_OWNER}`], webchat: ["*"] } } },
    }),
  );
  config.agents.defaults.sandbox = { mode: "all", backend: "bwrap", workspaceAccess: "rw" };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  await waitUntil(() => gw.output().includes("channel account started"), 30_000, "the Telegram account");
  rpc = new Rpc((await openOperator(gw.url, gw.token)).sock);
});
afterAll(async () => {
  rpc?.sock.close();
  await gw?.stop();
  await telegram?.close();
  await model?.close();
});

/** Sends `text` from `sender` in their DM and resolves with the bot's next message there. */
async function say(sender: number, text: string): Promise<string> {
  const before = telegram.messages(sender).length;
  telegram.pushMessage({ chatId: sender, fromId: sender, fromName: `User ${sender}`, text, messageId: messageId++ });
  await telegram.waitFor(() => telegram.messages(sender).length > before, 30_000);
  return String(telegram.messages(sender)[before]!.text);
}

/** A chat.send turn of the operator; resolves with the reply the run ended with. */
async function operatorTurn(sessionKey: string, message: string, id: string): Promise<string> {
  const sent = await rpc.request("chat.send", { sessionKey, message, idempotencyKey: id });
  expect(sent.ok, JSON.stringify(sent.error)).toBe(true);
  const waited = await rpc.request("agent.wait", { runId: id, timeoutMs: 30_000 }, 35_000);
  expect(waited.payload.status).toBe("ok");
  const history = await rpc.request("chat.history", { sessionKey, limit: 1 });
  return JSON.stringify(history.payload.messages.at(-1));
}

describe("elevated exec from a sandboxed session", { timeout: 120_000 }, () => {
  it("an admitted sender's exec runs on the host at the default level, in the sandbox after /elevated off, and on the host for one inline message", async () => {
    expect(await say(ELEVATED_OWNER, "/elevated")).toContain("Elevated: on (the default). exec runs on the host, outside the session's sandbox");
    expect(await say(ELEVATED_OWNER, "probe please")).toBe("ran on: host (said elevated)");

    expect(await say(ELEVATED_OWNER, "/elevated off")).toBe("Elevated for this session: off. exec runs in the session's sandbox.");
    expect(await say(ELEVATED_OWNER, "probe again")).toBe("ran on: sandbox");
    expect(await say(ELEVATED_OWNER, "/status")).toContain("Sandbox: on · your exec runs in the sandbox");

    expect(await say(ELEVATED_OWNER, "/elev on probe once more")).toBe("ran on: host (said elevated)");
    // The inline level was for that message only: the session is still off.
    expect(await say(ELEVATED_OWNER, "probe after")).toBe("ran on: sandbox");
    const bash = await say(ELEVATED_OWNER, `! cat ${markerPath} 2>&1 || true`);
    expect(bash).not.toContain(MARKER);
    // The command ran (its output is the reply, not a "still running" note) and found no such file.
    expect(bash).toContain("No such file or directory");

    expect(await say(ELEVATED_OWNER, "/elevated full")).toBe(
      "Elevated for this session: full. exec runs on the host, outside the session's sandbox; tools.exec's security, allowlist and approvals still apply.",
    );
    expect(await say(ELEVATED_OWNER, "/status")).toContain("Sandbox: on · your exec runs on the host (/elevated full)");
    const elevatedBash = await say(ELEVATED_OWNER, `! cat ${markerPath}`);
    expect(elevatedBash).toContain(MARKER);
    expect(elevatedBash).toContain("[elevated: ran on the host, outside the sandbox]");
    expect(await say(ELEVATED_OWNER, "/elevated sideways")).toBe('Unknown elevated level "sideways". Choose one of: off, on, ask, full, default.');
  });

  it("an owner not on tools.elevated.allowFrom stays in the sandbox and is told which gate fails; nothing changes", async () => {
    const refused = await say(OTHER_OWNER, "/elevated on");
    expect(refused).toContain("/elevated is not available to you here (this session is sandboxed).");
    expect(refused).toContain("Failing gates: allowFrom (tools.elevated.allowFrom.telegram).");
    expect(await say(OTHER_OWNER, "/elevated on probe inline")).toContain("Failing gates: allowFrom (tools.elevated.allowFrom.telegram).");
    expect(await say(OTHER_OWNER, "probe")).toBe("ran on: sandbox");
    expect(await say(OTHER_OWNER, "/status")).toContain("Sandbox: on · your exec runs in the sandbox");
  });

  it('chat.send is webchat: admitted by "*", at the level sessions.patch sets; a bad level is refused', async () => {
    expect(await operatorTurn("agent:main:ops", "probe", "elev-ops-1")).toContain("ran on: host (said elevated)");
    const patched = await rpc.request("sessions.patch", { key: "agent:main:ops", elevatedLevel: "off" });
    expect(patched.ok, JSON.stringify(patched.error)).toBe(true);
    expect(patched.payload.entry.elevatedLevel).toBe("off");
    expect(await operatorTurn("agent:main:ops", "probe", "elev-ops-2")).toContain("ran on: sandbox");
    const bad = await rpc.request("sessions.patch", { key: "agent:main:ops", elevatedLevel: "sideways" });
    expect(bad.ok).toBe(false);
    expect(bad.error.message).toContain('invalid elevatedLevel "sideways" (use "on", "off", "ask" or "full")');
  });

  it("openclaw sandbox explain names who may leave the sandbox", async () => {
    const explained = await runCli(["sandbox", "explain", "--session", "agent:main:other"], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(explained.code).toBe(0);
    expect(explained.output).toContain("elevated: telegram (1 entry), webchat (everyone); their exec leaves the sandbox at the session's /elevated level (default on)");
  });
});
