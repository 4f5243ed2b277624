import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastMessageOf } from "../helpers/model-request.js";
import { fakeAgentCommand, isRunning, processesWithArgument } from "../helpers/acp-agent.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * The whole way of "refactor src/utils.ts with Claude Code" from a Telegram chat: the main agent
 * spawns an ACP child, the child's progress shows up in the chat while it works, its result is
 * announced to the main agent once, and the main agent's answer is the chat's last message.
 */

const OWNER = 4242;
let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let stateDir: string;

function config(stream: Record<string, unknown> = {}): string {
  return fakeModelConfig(model, stateDir, {
    channels: {
      telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }),
    },
    acp: {
      enabled: true,
      allowedAgents: ["claude"],
      agents: { claude: fakeAgentCommand("--variant", "claude", "--marker", stateDir) },
      stream: { coalesceIdleMs: 20, tagVisibility: { tool_call: true, agent_message_chunk: true }, ...stream },
    },
    plugins: { entries: { acpx: { config: { permissionMode: "approve-all" } } } },
  });
}

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram();
  stateDir = makeTempDir();
  const project = path.join(stateDir, "project");
  fs.mkdirSync(path.join(project, "src"), { recursive: true });
  fs.writeFileSync(path.join(project, "src", "utils.ts"), "export function add(a, b) { return a + b; }\n");
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config() } });
  await gw.waitForOutput(/channel account started/, 10_000);
});
afterAll(async () => {
  await gw?.stop();
  await telegram?.close();
  await model?.close();
});

describe("Telegram → main agent → sessions_spawn(runtime acp) → Claude Code adapter → reply in the chat", () => {
  it("shows progress while the agent works, announces its result once, and answers in the chat", async () => {
    const project = path.join(stateDir, "project");
    model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text.includes("refactor src/utils.ts")) {
        return {
          toolCalls: [
            {
              name: "sessions_spawn",
              arguments: { runtime: "acp", agentId: "claude", task: "Refactor src/utils.ts #tool #read:src/utils.ts", cwd: project, label: "refactor utils", streamTo: "parent" },
            },
          ],
        };
      }
      if (last.role === "tool") return { text: "Claude Code is on it." };
      if (last.text.includes("<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>")) {
        const result = last.text.split("<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>\n")[1]!.split("\n<<<END_UNTRUSTED_CHILD_RESULT>>>")[0]!;
        return { text: `Done. Claude Code reports: ${result}` };
      }
      return { text: "?" };
    });
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "please refactor src/utils.ts with Claude Code", messageId: 1 });
    const texts = () => telegram.messages(OWNER).map((m) => String(m.text));
    await telegram.waitFor(() => texts().some((t) => t.startsWith("Done. Claude Code reports:")), 60_000);

    const chat = texts();
    expect(chat[0]).toBe("Claude Code is on it.");
    // Progress relayed while it worked: its tool call title and its words, before the final answer.
    const progress = chat.slice(1, -1).join("\n");
    expect(progress).toContain("[tool] Edit src/utils.ts");
    expect(progress).toContain("read: export function add(a, b) { return a + b; }");
    expect(chat.at(-1)).toBe("Done. Claude Code reports: read: export function add(a, b) { return a + b; }");
    expect(chat.filter((t) => t.startsWith("Done."))).toHaveLength(1);
    // The oneshot agent process is gone.
    expect(processesWithArgument(stateDir).filter(isRunning)).toEqual([]);
  }, 90_000);

  it("with acp.stream.deliveryMode final_only the chat gets no progress, only the answer built on the result", async () => {
    const reloads = () => gw.output().split('"msg":"config reloaded"').length;
    const before = reloads();
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), config({ deliveryMode: "final_only" }));
    await telegram.waitFor(() => reloads() > before, 10_000);
    const texts = () => telegram.messages(OWNER).map((m) => String(m.text));
    const shown = texts().length;
    telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "please refactor src/utils.ts with Claude Code again", messageId: 2 });
    await telegram.waitFor(
      () =>
        texts()
          .slice(shown)
          .some((t) => t.startsWith("Done. Claude Code reports:")),
      60_000,
    );
    expect(texts().slice(shown)).toEqual(["Claude Code is on it.", "Done. Claude Code reports: read: export function add(a, b) { return a + b; }"]);
  }, 90_000);
});
