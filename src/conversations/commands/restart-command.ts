import type { ChatCommandContext } from "./chat-command-registry.js";

/** `/restart`: a graceful restart of the gateway, announced in the chat before it starts. Off with `commands.restart: false`. */
export function runRestartCommand(ctx: ChatCommandContext): string {
  if (ctx.config().commands?.restart === false) return "/restart is off on this gateway (commands.restart: false).";
  const admin = ctx.admin;
  if (!admin) return "/restart is not available here.";
  if (admin.writeRefusal) return admin.writeRefusal;
  const started = admin.restart(`/restart from ${ctx.chat ? `${ctx.chat.channel}:${ctx.chat.senderId}` : ctx.method}`);
  return started.ok ? "Restarting the gateway now; it is back in a few seconds." : started.message;
}
