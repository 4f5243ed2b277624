import type { OpenClawConfig } from "../../config/index.js";
import { ownerIdOn } from "../access/allow-list.js";
import { resolveChannelAccounts } from "./channel-accounts.js";

type ExecApprovalsSettings = NonNullable<NonNullable<NonNullable<OpenClawConfig["channels"]>["telegram"]>["execApprovals"]>;

/** A Telegram account acting as an exec approval client: who answers, and where they are asked. */
export interface TelegramApprovalClient {
  accountId: string;
  /** Numeric Telegram user ids. */
  approvers: string[];
  /** dm: each approver's DM; channel: the run's chat; both. */
  target: "dm" | "channel" | "both";
  agentFilter?: string[];
  sessionFilter?: string[];
}

/**
 * The Telegram users who answer exec approvals on an account: `execApprovals.approvers`, else the
 * numeric Telegram ids among `commands.ownerAllowFrom`. Empty when neither names one.
 */
export function telegramExecApprovers(config: OpenClawConfig, accountId: string): string[] {
  return approversOf(config, telegramAccount(config, accountId)?.config.execApprovals as ExecApprovalsSettings | undefined);
}

/**
 * The account's approval client when it is on: `execApprovals.enabled` true, or `auto` (the
 * default), with at least one approver; undefined when off, when no approver resolves, or when
 * the account is disabled.
 */
export function telegramApprovalClient(config: OpenClawConfig, accountId: string): TelegramApprovalClient | undefined {
  const account = telegramAccount(config, accountId);
  if (!account?.enabled) return undefined;
  const settings = account.config.execApprovals as ExecApprovalsSettings | undefined;
  if (settings?.enabled === false) return undefined;
  const approvers = approversOf(config, settings);
  if (approvers.length === 0) return undefined;
  return {
    accountId,
    approvers,
    target: settings?.target ?? "dm",
    ...(settings?.agentFilter ? { agentFilter: settings.agentFilter } : {}),
    ...(settings?.sessionFilter ? { sessionFilter: settings.sessionFilter } : {}),
  };
}

function approversOf(config: OpenClawConfig, settings: ExecApprovalsSettings | undefined): string[] {
  const explicit = (settings?.approvers ?? []).map((id) => id.replace(/^(tg|telegram):/, ""));
  if (explicit.length > 0) return [...new Set(explicit)];
  const owners = (config.commands?.ownerAllowFrom ?? []).map((raw) => ownerIdOn("telegram", raw)).filter((id): id is string => id !== undefined && /^\d+$/.test(id));
  return [...new Set(owners)];
}

function telegramAccount(config: OpenClawConfig, accountId: string) {
  return resolveChannelAccounts(config, "telegram").find((a) => a.accountId === accountId);
}

type Capabilities = NonNullable<NonNullable<NonNullable<OpenClawConfig["channels"]>["telegram"]>["capabilities"]>;

/**
 * Whether `capabilities.inlineButtons` lets the account put buttons in a chat: `off` nowhere,
 * `dm` in private chats (positive ids), `group` in groups (negative ids), `all` and `allowlist`
 * (the default) everywhere. The legacy list form names `inlineButtons` for `all`; an account's
 * empty list inherits the channel's setting.
 */
export function telegramButtonsAllowed(config: OpenClawConfig, accountId: string, chatId: string): boolean {
  const own = telegramAccount(config, accountId)?.config.capabilities as Capabilities | undefined;
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
