import type { OpenClawConfig } from "../../config/index.js";
import { ownerIdOn } from "../access/allow-list.js";
import { resolveChannelAccounts } from "./channel-accounts.js";

/** The channels whose accounts can act as exec approval clients (`channels.<channel>.execApprovals`). */
export type ApprovalClientChannel = "telegram" | "discord" | "slack";

interface ExecApprovalsSettings {
  enabled?: boolean | "auto";
  approvers?: string[];
  target?: "dm" | "channel" | "both";
  agentFilter?: string[];
  sessionFilter?: string[];
  cleanupAfterResolve?: boolean;
}

/** A chat account acting as an exec approval client: who answers, and where they are asked. */
export interface ExecApprovalClient {
  channel: ApprovalClientChannel;
  accountId: string;
  /** Platform user ids (Telegram: numeric; Discord: snowflakes; Slack: `U…`/`W…`). */
  approvers: string[];
  /** dm: each approver's DM; channel: the run's chat; both. */
  target: "dm" | "channel" | "both";
  agentFilter?: string[];
  sessionFilter?: string[];
  /** The approvers' DM prompts are deleted once the request ends, rather than edited (Discord's setting). */
  cleanupAfterResolve: boolean;
}

/**
 * How each channel names its approvers, whether its client is on when `enabled` is unset
 * (Telegram's is, as `auto`; Discord's and Slack's are not), and whether its approvers alone
 * answer even while the client is off (Telegram's and Discord's do; on Slack the owners then
 * answer): OpenClaw's rules.
 */
const CHANNELS: Record<
  ApprovalClientChannel,
  { enabledByDefault: boolean; approversAnswerWhenOff: boolean; approverId(raw: string): string | undefined; dmTarget(id: string): string }
> = {
  telegram: {
    enabledByDefault: true,
    approversAnswerWhenOff: true,
    approverId: (raw) => /^(?:tg:|telegram:)?(\d+)$/.exec(raw.trim())?.[1],
    dmTarget: (id) => id,
  },
  discord: {
    enabledByDefault: false,
    approversAnswerWhenOff: true,
    approverId: (raw) => /^(?:discord:|user:)?(\d{17,20})$/.exec(raw.trim())?.[1] ?? /^<@!?(\d{17,20})>$/.exec(raw.trim())?.[1],
    dmTarget: (id) => `user:${id}`,
  },
  slack: {
    enabledByDefault: false,
    approversAnswerWhenOff: false,
    // Slack ids are upper case; allow-list entries and session keys may carry them lower-cased.
    approverId: (raw) => (/^(?:slack:|user:)?([UW][A-Z0-9]{2,})$/i.exec(raw.trim())?.[1] ?? /^<@([UW][A-Z0-9]{2,})>$/i.exec(raw.trim())?.[1])?.toUpperCase(),
    dmTarget: (id) => `user:${id}`,
  },
};

export function isApprovalClientChannel(channel: string): channel is ApprovalClientChannel {
  return channel === "telegram" || channel === "discord" || channel === "slack";
}

/**
 * The account's approval client when it is on: `execApprovals.enabled` true or `auto` (unset: as
 * the channel's default), with at least one approver: `execApprovals.approvers`, else the
 * channel's ids among `commands.ownerAllowFrom`. Undefined when off, when no approver resolves,
 * or when the account is disabled.
 */
export function execApprovalClient(config: OpenClawConfig, channel: ApprovalClientChannel, accountId: string): ExecApprovalClient | undefined {
  const settings = accountSettings(config, channel, accountId);
  if (settings === null || !clientOn(channel, settings)) return undefined;
  const approvers = approversOf(config, channel, settings);
  if (approvers.length === 0) return undefined;
  return {
    channel,
    accountId,
    approvers,
    target: settings?.target ?? "dm",
    ...(settings?.agentFilter ? { agentFilter: settings.agentFilter } : {}),
    ...(settings?.sessionFilter ? { sessionFilter: settings.sessionFilter } : {}),
    cleanupAfterResolve: settings?.cleanupAfterResolve === true,
  };
}

/**
 * Who alone may answer exec approvals (`/approve`, its buttons) in the account's chats: its
 * resolved approvers while its client is on, and on Telegram and Discord also while it is off;
 * undefined where the owners answer (no approver resolves, or Slack's client is off).
 */
export function chatExecApprovers(config: OpenClawConfig, channel: ApprovalClientChannel, accountId: string): string[] | undefined {
  const settings = accountSettings(config, channel, accountId);
  if (settings === null || (!clientOn(channel, settings) && !CHANNELS[channel].approversAnswerWhenOff)) return undefined;
  const approvers = approversOf(config, channel, settings);
  return approvers.length > 0 ? approvers : undefined;
}

/** The account's `execApprovals` (undefined when it has none); null when the account is unknown or disabled. */
function accountSettings(config: OpenClawConfig, channel: ApprovalClientChannel, accountId: string): ExecApprovalsSettings | undefined | null {
  const account = resolveChannelAccounts(config, channel).find((a) => a.accountId === accountId);
  return account?.enabled ? (account.config as { execApprovals?: ExecApprovalsSettings }).execApprovals : null;
}

/** `enabled` true or `auto`, or unset where the channel's client is on by default. */
function clientOn(channel: ApprovalClientChannel, settings: ExecApprovalsSettings | undefined): boolean {
  return (settings?.enabled ?? (CHANNELS[channel].enabledByDefault ? "auto" : false)) !== false;
}

/** The `to` of an approver's DM on the client's channel (what `resolveTarget` takes). */
export function approverDmTarget(client: ExecApprovalClient, approverId: string): string {
  return CHANNELS[client.channel].dmTarget(approverId);
}

function approversOf(config: OpenClawConfig, channel: ApprovalClientChannel, settings: ExecApprovalsSettings | undefined): string[] {
  const { approverId } = CHANNELS[channel];
  const explicit = (settings?.approvers ?? []).map(approverId).filter((id): id is string => id !== undefined);
  if (explicit.length > 0) return [...new Set(explicit)];
  const owners = (config.commands?.ownerAllowFrom ?? [])
    .map((raw) => ownerIdOn(channel, raw))
    .map((id) => (id === undefined ? undefined : approverId(id)))
    .filter((id): id is string => id !== undefined);
  return [...new Set(owners)];
}
