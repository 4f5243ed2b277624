import { describe, expect, it } from "vitest";
import { agentButtonsRefusal } from "../../../src/channels/config/chat-buttons.js";
import { validateConfig } from "../../../src/config/index.js";

const load = (channels: Record<string, unknown>) => validateConfig({ channels }, {}).config;

describe("where the agent's own buttons may go", () => {
  it("Telegram: where capabilities.inlineButtons allows", () => {
    const config = load({ telegram: { botToken: "1:a", capabilities: { inlineButtons: "dm" } } });
    expect(agentButtonsRefusal(config, { channel: "telegram", accountId: "default", chatId: "901" })).toBeUndefined();
    expect(agentButtonsRefusal(config, { channel: "telegram", accountId: "default", chatId: "-100500" })).toBe(
      "this chat takes no buttons (channels.telegram.capabilities.inlineButtons)",
    );
  });

  it("Discord: unless agentComponents.enabled is false for the account", () => {
    const config = load({ discord: { token: "t", accounts: { quiet: { token: "q", agentComponents: { enabled: false, ttlMs: 60_000 } } } } });
    expect(agentButtonsRefusal(config, { channel: "discord", accountId: "default", chatId: "1" })).toBeUndefined();
    expect(agentButtonsRefusal(config, { channel: "discord", accountId: "quiet", chatId: "1" })).toBe(
      "the agent's buttons are off on this Discord account (channels.discord.agentComponents.enabled)",
    );
  });

  it("refuses a ttlMs over 24 hours", () => {
    expect(() => load({ discord: { token: "t", agentComponents: { ttlMs: 86_400_001 } } })).toThrow(/agentComponents\.ttlMs/);
  });
});
