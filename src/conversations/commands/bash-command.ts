import { turnElevatedLevel } from "../../agents/sandbox/elevated-level.js";
import type { ChatCommandContext } from "./chat-command-registry.js";

/**
 * `/bash <command>` and `! <command>`: off unless `commands.bash: true`; the command meets exec's
 * policy and approvals, and runs where the session's `exec` would for this sender (see the admin port).
 */
export async function runBashCommand(args: string, ctx: ChatCommandContext): Promise<{ text: string; followUp?: Promise<string> }> {
  const refusal = bashRefusal(args, ctx);
  if (refusal) return { text: refusal };
  const elevated = turnElevatedLevel(ctx.elevated?.allowed ? {} : undefined, ctx.sessions.get(ctx.sessionKey)?.elevatedLevel, ctx.config().agents.defaults.elevatedDefault);
  return ctx.admin!.shell({ sessionKey: ctx.sessionKey, command: args.trim(), senderIsOwner: ctx.senderIsOwner, elevated, ...(ctx.chat ? { channel: ctx.chat.channel } : {}) });
}

function bashRefusal(args: string, ctx: ChatCommandContext): string | undefined {
  if (ctx.config().commands?.bash !== true)
    return "/bash is off on this gateway. The owner can enable it with commands.bash: true; commands then run under the exec tool's policy and approvals.";
  if (!ctx.admin) return "/bash is not available here.";
  if (ctx.admin.writeRefusal) return ctx.admin.writeRefusal;
  if (!args.trim()) return "Usage: /bash <command> (or ! <command>)";
  return undefined;
}
