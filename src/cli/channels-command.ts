import { randomUUID } from "node:crypto";
import { defaultConfigPathForWrite, loadConfig, resolveConfigPath, resolveStateDir } from "../config/index.js";
import { setConfigValueInFile } from "../config/set-value.js";
import { PairingStore } from "../channels/access/pairing-store.js";
import { CHANNEL_IDS, isChannelId } from "../channels/config/channel-accounts.js";
import { connectClient, type ClientFlags } from "./client-context.js";
import { formatDuration } from "./gateway-call.js";
import { CliError, printJson } from "./output.js";

/**
 * `openclaw pairing list|approve|reject` work on the pairing files under the state dir, like
 * OpenClaw's: they need no running gateway, and a running one sees the change on its next
 * message (it re-reads the files when they change).
 */
export function pairingListCommand(channel: string | undefined, flags: { account?: string; json?: boolean }): void {
  if (channel !== undefined) knownChannel(channel);
  const store = new PairingStore(resolveStateDir(process.env));
  const pending = store.listPending(channel?.toLowerCase(), flags.account?.toLowerCase());
  if (flags.json) return printJson({ requests: pending });
  if (pending.length === 0) return void process.stdout.write("No pending pairing requests\n");
  const now = Date.now();
  for (const r of pending) {
    process.stdout.write(
      `${r.channel}  ${r.code}  account ${r.accountId}  sender ${r.senderId}${r.senderName ? ` (${r.senderName})` : ""}  expires in ${formatDuration(r.expiresAt - now)}\n`,
    );
  }
}

export function pairingApproveCommand(channel: string, code: string, flags: { account?: string; json?: boolean }): void {
  const store = new PairingStore(resolveStateDir(process.env));
  const approved = store.approve(knownChannel(channel), code, flags.account?.toLowerCase());
  if (!approved) throw new CliError(`No pending pairing request with code ${code.trim().toUpperCase()} on ${channel} (codes expire after 1 hour)`);
  const owner = bootstrapOwner(`${approved.channel}:${approved.senderId}`);
  if (flags.json) return printJson({ approved, ...(owner ? { ownerAllowFrom: [owner] } : {}) });
  process.stdout.write(`Approved ${channel} sender ${approved.senderId} (account ${approved.accountId}). Their next message reaches the agent.\n`);
  if (owner) process.stdout.write(`No owner was configured: ${owner} is now the owner (commands.ownerAllowFrom).\n`);
}

/** `openclaw pairing reject`: drop a request so the sender stays out; they can ask again with a new message. */
export function pairingRejectCommand(channel: string, code: string, flags: { account?: string; json?: boolean }): void {
  const store = new PairingStore(resolveStateDir(process.env));
  const rejected = store.reject(knownChannel(channel), code, flags.account?.toLowerCase());
  if (!rejected) throw new CliError(`No pending pairing request with code ${code.trim().toUpperCase()} on ${channel} (codes expire after 1 hour)`);
  if (flags.json) return printJson({ rejected });
  process.stdout.write(`Rejected ${channel} sender ${rejected.senderId} (account ${rejected.accountId}). A new message from them creates a new request.
`);
}

/** The channel id a pairing command names, lower-cased; one that is no channel is refused. */
function knownChannel(channel: string): string {
  const id = channel.toLowerCase();
  if (!isChannelId(id)) throw new CliError(`unknown channel "${channel}" (expected one of: ${CHANNEL_IDS.join(", ")})`);
  return id;
}

/**
 * OpenClaw's first-approval rule: with no owner configured, the first sender approved from the
 * CLI (the person at the machine pairing their own account) becomes the owner, so owner-only
 * tools and commands work for them. Returns the entry written, or undefined when an owner exists.
 */
function bootstrapOwner(entry: string): string | undefined {
  const stateDir = resolveStateDir(process.env);
  const loaded = loadConfig({ stateDir, env: process.env });
  if ((loaded.config.commands?.ownerAllowFrom ?? []).length > 0) return undefined;
  const file = resolveConfigPath(stateDir, process.env) ?? defaultConfigPathForWrite(stateDir);
  setConfigValueInFile(file, "commands.ownerAllowFrom", [entry], process.env);
  return entry;
}

/** `openclaw channels status`: each channel account's connection, from the gateway. */
export async function channelsStatusCommand(flags: ClientFlags): Promise<void> {
  const client = await connectClient(flags);
  try {
    const res = (await client.call("channels.status", {})) as {
      channelOrder: string[];
      channelAccounts: Record<
        string,
        {
          accountId: string;
          name?: string;
          running: boolean;
          connected: boolean;
          reconnectAttempts: number;
          lastError: string | null;
          mode?: string;
          botUsername?: string;
          dmPolicy: string;
        }[]
      >;
    };
    if (flags.json) return printJson(res);
    if (res.channelOrder.length === 0) return void process.stdout.write("No channels configured\n");
    for (const channel of res.channelOrder) {
      for (const a of res.channelAccounts[channel] ?? []) {
        const state = a.connected ? "connected" : a.running ? "connecting" : "stopped";
        const extras = [a.mode, a.botUsername ? `@${a.botUsername}` : undefined, `dm ${a.dmPolicy}`, a.reconnectAttempts ? `${a.reconnectAttempts} reconnects` : undefined]
          .filter(Boolean)
          .join(", ");
        const label = a.name ? ` "${a.name}"` : "";
        process.stdout.write(`${channel}/${a.accountId}${label}: ${state} (${extras})${a.lastError ? ` — last error: ${a.lastError}` : ""}\n`);
      }
    }
  } finally {
    client.close();
  }
}

/** `openclaw message send`: deliver a text through a channel, without an agent run. */
export async function messageSendCommand(
  flags: ClientFlags & { channel?: string; account?: string; target?: string; to?: string; message?: string; threadId?: string; replyTo?: string },
): Promise<void> {
  const to = flags.target ?? flags.to;
  if (!to) throw new CliError("--target <dest> is required (e.g. a Telegram chat id, channel:<id>, user:<id>)");
  if (!flags.message) throw new CliError("--message <text> is required");
  const client = await connectClient(flags);
  try {
    const res = (await client.call("send", {
      to,
      message: flags.message,
      idempotencyKey: randomUUID(),
      ...(flags.channel ? { channel: flags.channel } : {}),
      ...(flags.account ? { accountId: flags.account } : {}),
      ...(flags.threadId ? { threadId: flags.threadId } : {}),
      ...(flags.replyTo ? { replyToId: flags.replyTo } : {}),
    })) as { channel: string; chatId: string; messageIds: string[] };
    if (flags.json) return printJson(res);
    process.stdout.write(`Sent to ${res.channel} ${res.chatId} (message ${res.messageIds.join(", ")})\n`);
  } finally {
    client.close();
  }
}
