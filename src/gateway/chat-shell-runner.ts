import { runChatShellCommand } from "../agents/chat-shell.js";
import type { ExecApprovalBroker } from "../agents/approvals/approval-broker.js";
import type { ShellCommandInput } from "../conversations/commands/gateway-admin-port.js";
import { parseSessionKey } from "../sessions/keys/index.js";
import type { GatewayRuntime } from "./runtime.js";

/** How long `/bash` answers with the result itself unless `commands.bashForegroundMs` says otherwise; a longer command (or one waiting for an approval) reports when it ends. */
export const SHELL_FOREGROUND_MS = 2_000;

/**
 * `/bash` for a chat: the command runs through the exec tool (runChatShellCommand). A result
 * within `commands.bashForegroundMs` is the reply; otherwise the reply says it is running — or names the
 * exec approval it waits for, so `/approve <id> …` in the same chat can answer it — and the output
 * is the reply's follow-up, which the surface sends after it. The chat is never held meanwhile.
 */
export function createChatShellRunner(deps: { runtime(): GatewayRuntime; approvals(): ExecApprovalBroker }) {
  return async (input: ShellCommandInput): Promise<{ text: string; followUp?: Promise<string> }> => {
    const runtime = deps.runtime();
    let approvalId: ((id: string) => void) | undefined;
    const waitsForApproval = new Promise<string>((resolve) => (approvalId = resolve));
    const result = runChatShellCommand({
      config: runtime.config(),
      env: process.env,
      stateDir: runtime.stateDir,
      agentId: parseSessionKey(input.sessionKey).agentId,
      sessionKey: input.sessionKey,
      command: input.command,
      senderIsOwner: input.senderIsOwner,
      ...(input.channel ? { channel: input.channel } : {}),
      elevated: input.elevated,
      approvals: deps.approvals(),
      onApprovalRequested: (id) => approvalId?.(id),
    }).catch((err: Error) => `Not run: ${err.message}`);
    const foregroundMs = runtime.config().commands?.bashForegroundMs ?? SHELL_FOREGROUND_MS;
    let timer: NodeJS.Timeout | undefined;
    const first = await Promise.race([
      result.then((text) => ({ kind: "done" as const, text })),
      waitsForApproval.then((id) => ({ kind: "approval" as const, id })),
      // 0: answer at once, whatever the command does.
      foregroundMs === 0
        ? Promise.resolve({ kind: "running" as const })
        : new Promise<{ kind: "running" }>((resolve) => (timer = setTimeout(() => resolve({ kind: "running" }), foregroundMs))),
    ]);
    clearTimeout(timer);
    if (first.kind === "done") return { text: first.text };
    return {
      text:
        first.kind === "approval"
          ? `Waiting for an exec approval: /approve ${first.id} allow-once|allow-always|deny. The output comes here when the command ends.`
          : `Still running: ${input.command}. The output comes here when it ends.`,
      followUp: result,
    };
  };
}
