import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `streaming.mode: progress` through a real gateway and grammY against a fake Bot API: a turn
 * whose tool work lasts past the start delay shows one status draft (the agent's words before the
 * tool, a line per tool call), the answer arrives as its own message, and the draft is then
 * deleted; a plain answer never shows a draft. A progress_card the run writes shows its checklist
 * in the draft.
 */

const CHAT = 777;
/** The chat of the progress_card test (the fake Bot API keeps the first test's messages). */
const CARD_CHAT = 778;
const servers = useFakeServers({ telegram: true });

describe("progress drafts over Telegram", { timeout: 60_000 }, () => {
  it("shows a draft while a slow tool runs, then the answer, then the draft is gone; a quick answer gets none", async () => {
    const stateDir = makeTempDir("openclaw-progress-");
    const streaming = { mode: "progress", throttleMs: 250, progress: { toolProgress: true } };
    const content = fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)], streaming }) } });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const posted = () => servers.telegram.messages(CHAT).map((m) => String(m.text));

    servers.model.enqueue({ text: "Let me run the tests.", toolCalls: [{ name: "exec", arguments: { command: "sleep 3; echo done" } }] }, { text: "All tests pass." });
    servers.telegram.pushMessage({ chatId: CHAT, fromId: CHAT, fromName: "Owner", text: "run the tests", messageId: 1 });
    await servers.telegram.waitFor(() => servers.telegram.shown(CHAT).length === 1, 15_000);
    expect(servers.telegram.shown(CHAT)).toEqual(["Let me run the tests.\n• 💻 Exec"]);
    await servers.telegram.waitFor(() => posted().includes("All tests pass."), 15_000);
    await servers.telegram.waitFor(() => servers.telegram.shown(CHAT).length === 1, 15_000);
    expect(servers.telegram.shown(CHAT)).toEqual(["All tests pass."]);
    expect(posted()).toEqual(["Let me run the tests.\n• 💻 Exec", "All tests pass."]);

    servers.model.enqueue({ text: "Quick answer." });
    servers.telegram.pushMessage({ chatId: CHAT, fromId: CHAT, fromName: "Owner", text: "quick?", messageId: 2 });
    await servers.telegram.waitFor(() => posted().length === 3, 15_000);
    expect(posted()[2]).toBe("Quick answer.");
    expect(servers.telegram.shown(CHAT)).toEqual(["All tests pass.", "Quick answer."]);
    await gateway.stop();
  });

  it("the run's progress_card shows its checklist in the draft", async () => {
    const stateDir = makeTempDir("openclaw-progress-");
    const streaming = { mode: "progress", throttleMs: 250 };
    const content = fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CARD_CHAT)], streaming }) } });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const plan = [
      { step: "Inspect the route", status: "completed" },
      { step: "Repair the owner", status: "in_progress" },
    ];
    servers.model.enqueue(
      {
        text: "Working through it.",
        toolCalls: [
          { name: "progress_card", arguments: { plan } },
          { name: "exec", arguments: { command: "sleep 3; echo done" } },
        ],
      },
      { text: "Repaired." },
    );
    servers.telegram.pushMessage({ chatId: CARD_CHAT, fromId: CARD_CHAT, fromName: "Owner", text: "fix the route", messageId: 1 });
    await servers.telegram.waitFor(() => servers.telegram.shown(CARD_CHAT).length === 1, 15_000);
    expect(servers.telegram.shown(CARD_CHAT)).toEqual(["Working through it.\nPlan 1/2\n✅ Inspect the route\n▶️ Repair the owner"]);
    await servers.telegram.waitFor(() => servers.telegram.shown(CARD_CHAT).join() === "Repaired.", 15_000);
    await gateway.stop();
  });
});
