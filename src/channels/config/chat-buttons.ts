import type { OpenClawConfig } from "../../config/index.js";
import { resolveChannelAccounts } from "./channel-accounts.js";

type Capabilities = NonNullable<NonNullable<NonNullable<OpenClawConfig["channels"]>["telegram"]>["capabilities"]>;

/** Whether buttons may go under a message in a chat: Telegram's `capabilities.inlineButtons` says where; other channels decide by having them or not. */
export function chatButtonsAllowed(config: OpenClawConfig, chat: { channel: string; accountId: string; chatId: string }): boolean {
  return chat.channel !== "telegram" || telegramButtonsAllowed(config, chat.accountId, chat.chatId);
}

/**
 * Why the agent's own buttons (the `message` tool's) may not go under a message in a chat, or
 * undefined when they may: where buttons may go at all, and on Discord not with
 * `agentComponents.enabled: false`.
 */
export function agentButtonsRefusal(config: OpenClawConfig, chat: { channel: string; accountId: string; chatId: string }): string | undefined {
  if (!chatButtonsAllowed(config, chat)) return `this chat takes no buttons (channels.${chat.channel}.capabilities.inlineButtons)`;
  if (chat.channel !== "discord") return undefined;
  const account = resolveChannelAccounts(config, "discord").find((a) => a.accountId === chat.accountId);
  const components = account?.config.agentComponents as { enabled?: boolean } | undefined;
  return components?.enabled === false ? "the agent's buttons are off on this Discord account (channels.discord.agentComponents.enabled)" : undefined;
}

/**
 * Whether `capabilities.inlineButtons` lets the account put buttons in a chat: `off` nowhere,
 * `dm` in private chats (positive ids), `group` in groups (negative ids), `all` and `allowlist`
 * (the default) everywhere. The legacy list form names `inlineButtons` for `all`; an account's
 * empty list inherits the channel's setting.
 */
export function telegramButtonsAllowed(config: OpenClawConfig, accountId: string, chatId: string): boolean {
  const own = resolveChannelAccounts(config, "telegram").find((a) => a.accountId === accountId)?.config.capabilities as Capabilities | undefined;
  const scope = buttonScope(Array.isArray(own) && own.length === 0 ? config.channels?.telegram?.capabilities : own);
  if (scope === "off") return false;
  const direct = !chatId.startsWith("-");
  return scope === "dm" ? direct : scope === "group" ? !direct : true;
}

function buttonScope(capabilities: Capabilities | undefined): "off" | "dm" | "group" | "all" | "allowlist" {
  if (capabilities === undefined) return "allowlist";
  if (Array.isArray(capabilities)) return capabilities.includes("inlineButtons") ? "all" : "allowlist";
  return capabilities.inlineButtons ?? "allowlist";
}
