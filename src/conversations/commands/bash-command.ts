import { randomUUID } from "node:crypto";
import type { ChatCommandContext } from "./chat-command-registry.js";

/** `/bash <command>` and `! <command>`: off unless `commands.bash: true`; the command meets exec's policy and approvals (see the admin port). */
export async function runBashCommand(args: string, ctx: ChatCommandContext): Promise<string> {
  if (ctx.config().commands?.bash !== true)
    return "/bash is off on this gateway. The owner can enable it with commands.bash: true; commands then run under the exec tool's policy and approvals.";
  const admin = ctx.admin;
  if (!admin) return "/bash is not available here.";
  if (admin.writeRefusal) return admin.writeRefusal;
  const command = args.trim();
  if (!command) return "Usage: /bash <command> (or ! <command>)";
  const chat = ctx.chat && { channel: ctx.chat.channel, accountId: ctx.chat.accountId, to: ctx.chat.to, ...(ctx.chat.threadId ? { threadId: ctx.chat.threadId } : {}) };
  return admin.shell({
    sessionKey: ctx.sessionKey,
    command,
    senderIsOwner: ctx.senderIsOwner,
    replyKey: ctx.idempotencyKey ?? randomUUID(),
    ...(chat ? { chat } : {}),
  });
}
