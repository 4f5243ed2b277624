import { describe, expect, it } from "vitest";
import { resolveAgentRoute, type Binding } from "../../../../src/channels/routing/resolve-agent-route.js";
import { acpBindingId, findAcpBinding } from "../../../../src/channels/routing/acp-binding.js";

const base = { channel: "discord", accountId: "default", chatType: "channel" as const, peerId: "c1", guildId: "g1", memberRoleIds: ["r1"] };

describe("resolveAgentRoute", () => {
  const bindings: Binding[] = [
    { agentId: "chan", match: { channel: "discord", accountId: "*" } },
    { agentId: "acct", match: { channel: "discord", accountId: "default" } },
    { agentId: "guild", match: { channel: "discord", guildId: "g1" } },
    { agentId: "roles", match: { channel: "discord", guildId: "g1", roles: ["r1"] } },
    { agentId: "peer", match: { channel: "discord", peer: { id: "c1" } } },
  ];

  it("picks the most specific binding whatever the order: peer → guild+roles → guild → account → channel", () => {
    expect(resolveAgentRoute(bindings, base, "main")).toEqual({ agentId: "peer", matchedBy: "peer" });
    expect(resolveAgentRoute(bindings, { ...base, peerId: "c2" }, "main")).toEqual({ agentId: "roles", matchedBy: "guild+roles" });
    expect(resolveAgentRoute(bindings, { ...base, peerId: "c2", memberRoleIds: [] }, "main")).toEqual({ agentId: "guild", matchedBy: "guild" });
    expect(resolveAgentRoute(bindings, { ...base, peerId: "c2", guildId: "g2" }, "main")).toEqual({ agentId: "acct", matchedBy: "account" });
    expect(resolveAgentRoute(bindings, { ...base, peerId: "c2", guildId: "g2", accountId: "other" }, "main")).toEqual({ agentId: "chan", matchedBy: "channel" });
  });

  it("falls back to the default agent; other channels' bindings never match", () => {
    expect(resolveAgentRoute(bindings, { ...base, channel: "telegram" }, "main")).toEqual({ agentId: "main", matchedBy: "default" });
    expect(resolveAgentRoute(undefined, base, "main").matchedBy).toBe("default");
  });

  it("a peer binding can be limited to a chat kind, and a Slack team binding matches the team", () => {
    const b: Binding[] = [
      { agentId: "dm", match: { channel: "telegram", peer: { kind: "direct", id: "42" } } },
      { agentId: "team", match: { channel: "slack", teamId: "T1" } },
    ];
    expect(resolveAgentRoute(b, { channel: "telegram", accountId: "default", chatType: "direct", peerId: "42" }, "main").agentId).toBe("dm");
    expect(resolveAgentRoute(b, { channel: "telegram", accountId: "default", chatType: "group", peerId: "42" }, "main").agentId).toBe("main");
    expect(resolveAgentRoute(b, { channel: "slack", accountId: "default", chatType: "channel", peerId: "C1", teamId: "t1" }, "main")).toEqual({
      agentId: "team",
      matchedBy: "team",
    });
  });
  it("in a thread, a binding on the thread itself wins over one on its parent chat, whatever the order (as in OpenClaw)", () => {
    const b: Binding[] = [
      { agentId: "parent", match: { channel: "discord", peer: { id: "c1" } } },
      { agentId: "thread", match: { channel: "discord", peer: { id: "t9" } } },
    ];
    const inThread = { ...base, peerId: "t9", parentPeerId: "c1" };
    expect(resolveAgentRoute(b, inThread, "main")).toEqual({ agentId: "thread", matchedBy: "peer" });
    expect(resolveAgentRoute(b, { ...inThread, peerId: "t8" }, "main")).toEqual({ agentId: "parent", matchedBy: "peer-parent" });
  });

  it('a peer id "*" matches every peer (of its kind, when it names one), below an exact peer and above a guild (as in OpenClaw)', () => {
    const b: Binding[] = [
      { agentId: "guild", match: { channel: "discord", guildId: "g1" } },
      { agentId: "any-channel", match: { channel: "discord", peer: { kind: "channel", id: "*" } } },
      { agentId: "exact", match: { channel: "discord", peer: { id: "c1" } } },
      { agentId: "any-dm", match: { channel: "discord", peer: { kind: "direct", id: "*" } } },
    ];
    expect(resolveAgentRoute(b, base, "main")).toEqual({ agentId: "exact", matchedBy: "peer" });
    expect(resolveAgentRoute(b, { ...base, peerId: "c2" }, "main")).toEqual({ agentId: "any-channel", matchedBy: "peer-wildcard" });
    expect(resolveAgentRoute(b, { ...base, chatType: "direct", peerId: "u1", guildId: undefined }, "main")).toEqual({ agentId: "any-dm", matchedBy: "peer-wildcard" });
  });

  it('accountId "*" matches every account of the channel and ranks as a channel binding (as in OpenClaw)', () => {
    const b: Binding[] = [
      { agentId: "any", match: { channel: "discord", accountId: "*" } },
      { agentId: "work", match: { channel: "discord", accountId: "work" } },
    ];
    expect(resolveAgentRoute(b, { ...base, accountId: "home" }, "main")).toEqual({ agentId: "any", matchedBy: "channel" });
    expect(resolveAgentRoute(b, { ...base, accountId: "work" }, "main")).toEqual({ agentId: "work", matchedBy: "account" });
  });

  it('a binding without accountId matches only the account named "default" and ranks as an account binding, above "*" (as in OpenClaw)', () => {
    const b: Binding[] = [
      { agentId: "any", match: { channel: "telegram", accountId: "*" } },
      { agentId: "plain", match: { channel: "telegram" } },
    ];
    const dm = { channel: "telegram", chatType: "direct" as const, peerId: "42" };
    expect(resolveAgentRoute(b, { ...dm, accountId: "default" }, "main")).toEqual({ agentId: "plain", matchedBy: "account" });
    expect(resolveAgentRoute(b, { ...dm, accountId: "work" }, "main")).toEqual({ agentId: "any", matchedBy: "channel" });
    expect(resolveAgentRoute([b[1]!], { ...dm, accountId: "work" }, "main")).toEqual({ agentId: "main", matchedBy: "default" });
  });

  it("a binding matches only when every key of its match does: roles, guildId and teamId limit every tier", () => {
    const b: Binding[] = [
      { agentId: "mods-here", match: { channel: "discord", peer: { id: "c1" }, roles: ["mod"] } },
      { agentId: "other-guild-peer", match: { channel: "discord", peer: { id: "c1" }, guildId: "g2" } },
      { agentId: "mods", match: { channel: "discord", roles: ["mod"] } },
      { agentId: "team-mods", match: { channel: "slack", teamId: "T1", roles: ["mod"] } },
    ];
    expect(resolveAgentRoute(b, { ...base, memberRoleIds: ["mod"] }, "main")).toEqual({ agentId: "mods-here", matchedBy: "peer" });
    expect(resolveAgentRoute(b, base, "main")).toEqual({ agentId: "main", matchedBy: "default" });
    expect(resolveAgentRoute(b, { ...base, peerId: "c2", memberRoleIds: ["mod"] }, "main")).toEqual({ agentId: "mods", matchedBy: "account" });
    const slack = { channel: "slack", accountId: "default", chatType: "channel" as const, peerId: "C1", teamId: "T1" };
    expect(resolveAgentRoute(b, slack, "main")).toEqual({ agentId: "main", matchedBy: "default" });
  });
});

describe("ACP bindings", () => {
  const dm = { channel: "telegram", accountId: "default", chatType: "direct" as const, peerId: "42" };
  const bindings: Binding[] = [
    { type: "acp", agentId: "codex", match: { channel: "telegram", peer: { kind: "direct", id: "42" } } },
    { agentId: "work", match: { channel: "telegram", peer: { id: "42" } } },
  ];

  it("binds only its own peer's chat, and never routes to an agent", () => {
    expect(findAcpBinding(bindings, dm)?.agentId).toBe("codex");
    expect(findAcpBinding(bindings, { ...dm, peerId: "43" })).toBeUndefined();
    expect(findAcpBinding(bindings, { ...dm, chatType: "group" })).toBeUndefined();
    expect(findAcpBinding(bindings, { ...dm, channel: "discord" })).toBeUndefined();
    expect(resolveAgentRoute(bindings, dm, "main")).toEqual({ agentId: "work", matchedBy: "peer" });
    expect(resolveAgentRoute([bindings[0]!], dm, "main")).toEqual({ agentId: "main", matchedBy: "default" });
  });

  it('without accountId binds the chat on the account named "default" only; "*" on every account', () => {
    expect(findAcpBinding(bindings, { ...dm, accountId: "work" })).toBeUndefined();
    const anyAccount: Binding[] = [{ type: "acp", agentId: "codex", match: { channel: "telegram", accountId: "*", peer: { kind: "direct", id: "42" } } }];
    expect(findAcpBinding(anyAccount, { ...dm, accountId: "work" })?.agentId).toBe("codex");
  });

  it('a binding on the chat\'s own account wins over one on "*", whatever the order (as in OpenClaw)', () => {
    const peer = { kind: "direct" as const, id: "42" };
    const both: Binding[] = [
      { type: "acp", agentId: "anywhere", match: { channel: "telegram", accountId: "*", peer } },
      { type: "acp", agentId: "work-only", match: { channel: "telegram", accountId: "work", peer } },
      { type: "acp", agentId: "default-only", match: { channel: "telegram", peer } },
    ];
    expect(findAcpBinding(both, { ...dm, accountId: "work" })?.agentId).toBe("work-only");
    expect(findAcpBinding(both, dm)?.agentId).toBe("default-only");
    expect(findAcpBinding(both, { ...dm, accountId: "home" })?.agentId).toBe("anywhere");
  });

  it("a thread's own binding wins over its parent chat's, whatever the order; the account ranks first (as in OpenClaw)", () => {
    const thread = { channel: "discord", accountId: "work", chatType: "channel" as const, peerId: "t1", parentPeerId: "c1" };
    const parentFirst: Binding[] = [
      { type: "acp", agentId: "parent", match: { channel: "discord", accountId: "work", peer: { id: "c1" } } },
      { type: "acp", agentId: "thread", match: { channel: "discord", accountId: "work", peer: { id: "t1" } } },
    ];
    expect(findAcpBinding(parentFirst, thread)?.agentId).toBe("thread");
    expect(findAcpBinding([...parentFirst].reverse(), thread)?.agentId).toBe("thread");
    // The parent's binding still covers the chat's other threads and the chat itself.
    expect(findAcpBinding(parentFirst, { ...thread, peerId: "t2" })?.agentId).toBe("parent");
    expect(findAcpBinding(parentFirst, { ...thread, peerId: "c1", parentPeerId: undefined })?.agentId).toBe("parent");
    // The chat's own account outranks exactness: the parent's binding on "work" beats the thread's on "*".
    const anyAccountThread: Binding[] = [
      { type: "acp", agentId: "thread-anywhere", match: { channel: "discord", accountId: "*", peer: { id: "t1" } } },
      { type: "acp", agentId: "parent-work", match: { channel: "discord", accountId: "work", peer: { id: "c1" } } },
    ];
    expect(findAcpBinding(anyAccountThread, thread)?.agentId).toBe("parent-work");
    expect(findAcpBinding(anyAccountThread, { ...thread, accountId: "home" })?.agentId).toBe("thread-anywhere");
    // Equal on both, the first listed wins.
    const twins: Binding[] = [
      { type: "acp", agentId: "first", match: { channel: "discord", accountId: "*", peer: { id: "c1" } } },
      { type: "acp", agentId: "second", match: { channel: "discord", accountId: "*", peer: { id: "c1" } } },
    ];
    expect(findAcpBinding(twins, thread)?.agentId).toBe("first");
  });

  it("names a binding by its match, whatever its agent or letter case", () => {
    const one = findAcpBinding(bindings, dm)!;
    expect(acpBindingId(one)).toBe("telegram:*:direct:42");
    expect(acpBindingId({ ...one, agentId: "claude", match: { channel: "Telegram", peer: { kind: "direct", id: "42" } } })).toBe("telegram:*:direct:42");
  });
});
