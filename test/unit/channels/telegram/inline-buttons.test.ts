import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../../src/config/index.js";
import { telegramButtonsAllowed } from "../../../../src/channels/config/chat-buttons.js";

const load = (telegram: Record<string, unknown>, owners?: string[]) =>
  validateConfig({ channels: { telegram: { botToken: "1:a", ...telegram } }, ...(owners ? { commands: { ownerAllowFrom: owners } } : {}) }, {}).config;

describe("telegramButtonsAllowed (capabilities.inlineButtons)", () => {
  it("allowlist (the default) and all: every chat; dm: private chats; group: groups; off: none", () => {
    const where = (capabilities?: unknown) => {
      const config = load(capabilities === undefined ? {} : { capabilities });
      return [telegramButtonsAllowed(config, "default", "901"), telegramButtonsAllowed(config, "default", "-100500")];
    };
    expect(where()).toEqual([true, true]);
    expect(where({ inlineButtons: "all" })).toEqual([true, true]);
    expect(where({ inlineButtons: "dm" })).toEqual([true, false]);
    expect(where({ inlineButtons: "group" })).toEqual([false, true]);
    expect(where({ inlineButtons: "off" })).toEqual([false, false]);
    expect(where(["inlineButtons"])).toEqual([true, true]);
  });
  it("an account's own setting wins; an account's empty list inherits the channel's", () => {
    const config = load({
      capabilities: { inlineButtons: "off" },
      accounts: { work: { botToken: "2:b", capabilities: { inlineButtons: "dm" } }, home: { botToken: "3:c", capabilities: [] } },
    });
    expect(telegramButtonsAllowed(config, "work", "901")).toBe(true);
    expect(telegramButtonsAllowed(config, "home", "901")).toBe(false);
  });
});
