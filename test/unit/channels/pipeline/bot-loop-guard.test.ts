import { describe, expect, it } from "vitest";
import { BotLoopGuard, DEFAULT_BOT_LOOP_SETTINGS } from "../../../../src/channels/dispatch/bot-loop-guard.js";
import { botLoopSettingsFor } from "../../../../src/channels/dispatch/bot-loop-settings.js";
import type { OpenClawConfig } from "../../../../src/config/index.js";

describe("BotLoopGuard", () => {
  const settings = { enabled: true, maxEventsPerWindow: 3, windowSeconds: 60, cooldownSeconds: 30 };

  it("mutes a pair past its budget in the window, both directions counting, for the cooldown", () => {
    let now = 0;
    const guard = new BotLoopGuard(() => now);
    const ab = { scope: "discord:default:c1", senderBotId: "A", receiverBotId: "B" };
    const ba = { scope: "discord:default:c1", senderBotId: "B", receiverBotId: "A" };
    expect([guard.admit(ab, settings), guard.admit(ba, settings), guard.admit(ab, settings)].every((v) => v.admit)).toBe(true);
    expect(guard.admit(ba, settings)).toEqual({ admit: false, tripped: true, untilMs: 30_000 });
    now = 10_000;
    expect(guard.admit(ab, settings)).toEqual({ admit: false, tripped: false, untilMs: 30_000 });
    // Another conversation is another budget.
    expect(guard.admit({ ...ab, scope: "discord:default:c2" }, settings).admit).toBe(true);
    now = 30_000;
    expect(guard.admit(ab, settings).admit).toBe(true);
  });

  it("forgets events older than the window, and does nothing when disabled", () => {
    let now = 0;
    const guard = new BotLoopGuard(() => now);
    const ab = { scope: "s", senderBotId: "A", receiverBotId: "B" };
    for (let i = 0; i < 3; i += 1) guard.admit(ab, settings);
    now = 61_000;
    expect(guard.admit(ab, settings).admit).toBe(true);
    for (let i = 0; i < 50; i += 1) expect(guard.admit(ab, { ...settings, enabled: false }).admit).toBe(true);
  });
});

describe("botLoopSettingsFor", () => {
  it("layers OpenClaw's defaults, channels.defaults, the channel's and the account's, key by key", () => {
    const config = {
      channels: {
        defaults: { botLoopProtection: { maxEventsPerWindow: 10 } },
        discord: { botLoopProtection: { windowSeconds: 30 }, accounts: { ops: { botLoopProtection: { cooldownSeconds: 5 } } } },
      },
    } as unknown as OpenClawConfig;
    expect(botLoopSettingsFor(config, "discord", "ops")).toEqual({ enabled: true, maxEventsPerWindow: 10, windowSeconds: 30, cooldownSeconds: 5 });
    expect(botLoopSettingsFor(config, "slack", "default")).toEqual({ ...DEFAULT_BOT_LOOP_SETTINGS, maxEventsPerWindow: 10 });
  });
});
