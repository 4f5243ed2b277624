import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/index.js";
import { parseAllowlistArgs, runAllowlistCommand } from "../../../src/conversations/commands/allowlist-command.js";
import type { ChatCommandContext } from "../../../src/conversations/commands/chat-command-registry.js";

describe("/allowlist arguments", () => {
  it("reads action, scope, entry and the channel/account options in OpenClaw's order", () => {
    expect(parseAllowlistArgs("")).toEqual({ action: "list", scope: "dm", entry: "" });
    expect(parseAllowlistArgs("all")).toEqual({ action: "list", scope: "all", entry: "" });
    expect(parseAllowlistArgs("add 12345")).toEqual({ action: "add", scope: "dm", entry: "12345" });
    expect(parseAllowlistArgs("REMOVE group U200 channel=Slack")).toEqual({ action: "remove", scope: "group", entry: "U200", channel: "slack" });
    expect(parseAllowlistArgs("add dm 42 --channel telegram --account Work")).toEqual({ action: "add", scope: "dm", entry: "42", channel: "telegram", account: "work" });
  });
});

describe("/allowlist on a channel's accounts", () => {
  const config = validateConfig({ channels: { telegram: { botToken: "1:top", allowFrom: ["42"], accounts: { work: { botToken: "2:work", allowFrom: ["43"] } } } } }, {}).config;
  const run = (args: string, accountId: string) => runAllowlistCommand(args, { config: () => config, chat: { channel: "telegram", accountId } } as unknown as ChatCommandContext);

  it('lists the top-level "default" account beside accounts with the block\'s own keys, and a named one with its own', () => {
    expect(run("list", "default")).toMatch(/^Allowlist\nChannel: telegram \(account default\)\n[^\n]*\nDM allowFrom \(config\): 42$/);
    expect(run("list", "work")).toMatch(/^Allowlist\nChannel: telegram \(account work\)\n[^\n]*\nDM allowFrom \(config\): 43$/);
    expect(run("list channel=telegram account=home", "work")).toBe('No account "home" under channels.telegram.accounts.');
  });
});
