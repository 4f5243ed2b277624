import { GatewayCloseCodes } from "discord.js";
import { describe, expect, it } from "vitest";
import { createRedactor, describeFinalClose, TOKEN_REJECTED } from "../../../../extensions/discord/errors.js";
import discordPlugin from "../../../../extensions/discord/index.js";
import { parseDiscordTarget } from "../../../../extensions/discord/targets.js";
import { ChannelPermanentError } from "../../../../src/channels/types.js";
import { stubContext } from "./harness.js";

describe("discord plugin: config, targets, wording", () => {
  it("declares its id, label and Discord's limits", () => {
    expect(discordPlugin).toMatchObject({ id: "discord", label: "Discord", defaultLimits: { textChunkLimit: 2000, maxLinesPerMessage: 17 } });
  });

  it("needs a token from config or DISCORD_BOT_TOKEN", () => {
    const missing = "channels.discord: no bot token (set token or DISCORD_BOT_TOKEN)";
    expect(discordPlugin.checkAccountConfig({}, {})).toEqual([missing]);
    expect(discordPlugin.checkAccountConfig({ token: "  " }, {})).toEqual([missing]);
    expect(discordPlugin.checkAccountConfig({ token: "abc" }, {})).toEqual([]);
    expect(discordPlugin.checkAccountConfig({}, { DISCORD_BOT_TOKEN: "abc" })).toEqual([]);
    expect(discordPlugin.checkAccountConfig({}, { DISCORD_BOT_TOKEN: "abc" }, "default")).toEqual([]);
    expect(discordPlugin.checkAccountConfig({}, { DISCORD_BOT_TOKEN: "abc" }, "work")).toEqual([missing]);
  });

  it("uses DISCORD_BOT_TOKEN for the default account only: a named account without a token refuses to start", async () => {
    const env = { DISCORD_BOT_TOKEN: "env-token" };
    const named = discordPlugin.createAccount(stubContext({}, "work").context, env);
    const error = await named.start().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(ChannelPermanentError);
    expect(error!.message).toBe('discord account "work": channels.discord: no bot token (set token or DISCORD_BOT_TOKEN)');
    await named.stop();
  });

  it("parses the target grammar", () => {
    expect(parseDiscordTarget("channel:123")).toEqual({ kind: "channel", id: "123" });
    expect(parseDiscordTarget("CHANNEL:123")).toEqual({ kind: "channel", id: "123" });
    expect(parseDiscordTarget("<#123>")).toEqual({ kind: "channel", id: "123" });
    expect(parseDiscordTarget("discord:123")).toEqual({ kind: "channel", id: "123" });
    expect(parseDiscordTarget("user:42")).toEqual({ kind: "user", id: "42" });
    expect(parseDiscordTarget("<@42>")).toEqual({ kind: "user", id: "42" });
    expect(parseDiscordTarget("<@!42>")).toEqual({ kind: "user", id: "42" });
    expect(parseDiscordTarget("discord:user:42")).toEqual({ kind: "user", id: "42" });
    expect(() => parseDiscordTarget("user:@alice")).toThrow('discord: cannot read target "user:@alice"; use channel:<id>, user:<id>, <@id> or a numeric channel id');
    expect(() => parseDiscordTarget("123456789012345678901")).toThrow(/cannot read target/);
  });

  it("describes a sender for the pairing reply", () => {
    expect(discordPlugin.createAccount(stubContext({ token: "abc" }).context, {}).describeSender("42")).toBe("Your Discord user id: 42");
  });

  it("explains the close codes discord.js gives up on", () => {
    expect(describeFinalClose(GatewayCloseCodes.AuthenticationFailed)).toBe(TOKEN_REJECTED);
    expect(describeFinalClose(GatewayCloseCodes.DisallowedIntents)).toMatch(/Message Content Intent.*intents\.messageContent: false/);
    expect(describeFinalClose(GatewayCloseCodes.ShardingRequired)).toBe("discord: the gateway closed the connection for good (4011 ShardingRequired)");
  });

  it("redacts every occurrence of the token", () => {
    const redact = createRedactor("s3cret");
    expect(redact("a s3cret b s3cret")).toBe("a [redacted] b [redacted]");
    expect(createRedactor("")("nothing to hide")).toBe("nothing to hide");
  });
});
