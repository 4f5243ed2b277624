import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../../src/config/index.js";
import { elevatedAccess, WEBCHAT_SENDER } from "../../../../src/channels/access/elevated-access.js";

const config = (raw: Record<string, unknown>) => validateConfig(raw, {}).config;
const telegram = (id: string, extra: { username?: string; name?: string } = {}) => ({ channel: "telegram", id, ...extra });

describe("tools.elevated's gates", () => {
  it("admits nobody by default, naming the list to set", () => {
    expect(elevatedAccess(config({}), "main", telegram("42"))).toEqual({ allowed: false, failing: ["allowFrom (tools.elevated.allowFrom.telegram)"] });
  });

  it("matches ids with or without the channel's prefix, id: and from:, access groups and *", () => {
    const listed = (entry: string) => elevatedAccess(config({ tools: { elevated: { allowFrom: { telegram: [entry] } } } }), "main", telegram("42")).allowed;
    expect(listed("42")).toBe(true);
    expect(listed("telegram:42")).toBe(true);
    expect(listed("id:42")).toBe(true);
    expect(listed("from:tg:42")).toBe(true);
    expect(listed("*")).toBe(true);
    expect(listed("43")).toBe(false);
    expect(listed("e164:+15550100")).toBe(false);
    const grouped = config({
      accessGroups: { ops: { type: "message.senders", members: { telegram: ["42"] } } },
      tools: { elevated: { allowFrom: { telegram: ["accessGroup:ops"] } } },
    });
    expect(elevatedAccess(grouped, "main", telegram("42")).allowed).toBe(true);
    expect(elevatedAccess(grouped, "main", telegram("43")).allowed).toBe(false);
  });

  it("matches username: and name: only when the sender's names are given (accounts that match names)", () => {
    const cfg = config({ tools: { elevated: { allowFrom: { discord: ["username:@Mallory", "name:Ops Lead"] } } } });
    expect(elevatedAccess(cfg, "main", { channel: "discord", id: "7" }).allowed).toBe(false);
    expect(elevatedAccess(cfg, "main", { channel: "discord", id: "7", username: "mallory" }).allowed).toBe(true);
    expect(elevatedAccess(cfg, "main", { channel: "discord", id: "7", name: "ops lead" }).allowed).toBe(true);
  });

  it("a list is per channel: a Telegram id does not admit the same id on Discord", () => {
    const cfg = config({ tools: { elevated: { allowFrom: { telegram: ["42"] } } } });
    expect(elevatedAccess(cfg, "main", { channel: "discord", id: "42" })).toEqual({ allowed: false, failing: ["allowFrom (tools.elevated.allowFrom.discord)"] });
  });

  it("enabled: false, globally or on the agent, closes it whatever the lists say", () => {
    const lists = { allowFrom: { telegram: ["*"] } };
    expect(elevatedAccess(config({ tools: { elevated: { enabled: false, ...lists } } }), "main", telegram("42"))).toEqual({
      allowed: false,
      failing: ["enabled (tools.elevated.enabled)"],
    });
    const agentOff = config({ tools: { elevated: lists }, agents: { entries: { main: { tools: { elevated: { enabled: false } } } } } });
    expect(elevatedAccess(agentOff, "main", telegram("42"))).toEqual({ allowed: false, failing: ["enabled (agents.entries.main.tools.elevated.enabled)"] });
  });

  it("an agent's list narrows the global one for its channel and leaves other channels to it", () => {
    const cfg = config({
      tools: { elevated: { allowFrom: { telegram: ["42", "43"], slack: ["U1"] } } },
      agents: { entries: { main: { tools: { elevated: { allowFrom: { telegram: ["43"] } } } } } },
    });
    expect(elevatedAccess(cfg, "main", telegram("42"))).toEqual({ allowed: false, failing: ["allowFrom (agents.entries.main.tools.elevated.allowFrom.telegram)"] });
    expect(elevatedAccess(cfg, "main", telegram("43")).allowed).toBe(true);
    // The agent has a list, but none for Slack: its sender must be on both, and is on no agent list.
    expect(elevatedAccess(cfg, "main", { channel: "slack", id: "U1" }).allowed).toBe(false);
  });

  it("webchat (chat.send) is admitted only by *; a request without a sender never is", () => {
    expect(elevatedAccess(config({ tools: { elevated: { allowFrom: { webchat: ["operator"] } } } }), "main", WEBCHAT_SENDER).allowed).toBe(false);
    expect(elevatedAccess(config({ tools: { elevated: { allowFrom: { webchat: ["*"] } } } }), "main", WEBCHAT_SENDER).allowed).toBe(true);
    const none = elevatedAccess(config({ tools: { elevated: { allowFrom: { webchat: ["*"] } } } }), "main", undefined);
    expect(none.allowed).toBe(false);
    expect(none.failing[0]).toContain("a chat sender");
  });

  it("a list for a channel this gateway does not have loads with a warning; webchat is known", () => {
    const { warnings } = validateConfig(
      { tools: { elevated: { allowFrom: { whatsapp: ["+1555"], webchat: ["*"] } } }, agents: { entries: { main: { tools: { elevated: { allowFrom: { signal: ["x"] } } } } } } },
      {},
    );
    expect(warnings).toEqual([
      'tools.elevated.allowFrom.whatsapp: "whatsapp" is not a channel of this gateway (telegram, discord, slack, webchat), so this setting never applies',
      'agents.entries.main.tools.elevated.allowFrom.signal: "signal" is not a channel of this gateway (telegram, discord, slack, webchat), so this setting never applies',
    ]);
  });
});
