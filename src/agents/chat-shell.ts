import type { OpenClawConfig } from "../config/index.js";
import type { ExecApprovalBroker } from "./approvals/approval-broker.js";
import { execGateFromConfig } from "./approvals/exec-gate-from-config.js";
import type { GateBroker } from "./approvals/policy-gate.js";
import { resolveWorkspaceDir } from "./context/workspace.js";
import { resolveEffectiveTools } from "./policy/index.js";
import type { ElevatedLevel } from "./sandbox/elevated-level.js";
import { prepareTurnSandbox } from "./sandbox/turn-sandbox.js";
import { createExecTool } from "./tools/exec.js";
import { ensureWorkspaceOnce } from "./turn-context-cache.js";

/** A chat reply holds this much of a command's output: its end, where the result and errors are. */
export const CHAT_SHELL_MAX_OUTPUT_CHARS = 3_500;

export interface ChatShellInput {
  config: OpenClawConfig;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  agentId: string;
  sessionKey: string;
  command: string;
  senderIsOwner: boolean;
  channel?: string;
  /** The session's `/elevated` level for this sender: not `off` runs a sandboxed session's command on the host, as `exec` would. */
  elevated?: ElevatedLevel;
  /** Where an `ask` verdict goes for a human answer; without it such a command is denied. */
  approvals?: ExecApprovalBroker;
  /** Told the id of the exec approval the command waits for, so the chat can say how to answer it. */
  onApprovalRequested?: (id: string) => void;
}

/**
 * `/bash <command>` and `! <command>`: one command run exactly as the session's agent would run
 * it with `exec` — the agent's tool policy must offer `exec` to this sender on this channel, the
 * session's sandbox applies (unless the sender made the session elevated), and `tools.exec` security, allowlist and exec approvals decide —
 * bounded by `tools.exec.timeoutSeconds`. Resolves to the text to show in the chat.
 */
export async function runChatShellCommand(input: ChatShellInput, signal: AbortSignal = new AbortController().signal): Promise<string> {
  const { config, env, agentId, sessionKey } = input;
  const workspace = resolveWorkspaceDir(config, agentId, input.stateDir, env);
  await ensureWorkspaceOnce(workspace);
  const sandboxed = prepareTurnSandbox({ config, agentId, sessionKey, workspaceDir: workspace, stateDir: input.stateDir, env });
  const policy = resolveEffectiveTools({
    config,
    agentId,
    ...(input.channel ? { channel: input.channel } : {}),
    senderIsOwner: input.senderIsOwner,
    ownerOnlyTools: ["exec"],
    available: ["exec"],
    sandboxed: sandboxed.decision.sandboxed,
  });
  if (!policy.allowed.includes("exec") || sandboxed.withheld?.tools.includes("exec")) {
    sandboxed.sandbox?.endTurn();
    return `Not run: the exec tool is not allowed for agent "${agentId}" here (tools policy: tools.allow / tools.deny / tools.byChannel), and /bash runs only what exec may run.`;
  }
  const exec = config.tools?.exec ?? {};
  const tool = createExecTool({ maxOutputChars: 200_000, ...(exec.timeoutSeconds ? { defaultTimeoutSeconds: exec.timeoutSeconds } : {}) });
  try {
    const result = await tool.execute(
      { command: input.command },
      {
        agentId,
        sessionKey,
        workspaceDir: sandboxed.workspaceDir,
        senderIsOwner: input.senderIsOwner,
        services: { execApprovals: execGateFromConfig(config, observedBroker(input)) },
        ...(sandboxed.sandbox ? { sandbox: sandboxed.sandbox } : {}),
        ...(sandboxed.sandbox && input.elevated && input.elevated !== "off" ? { elevated: input.elevated } : {}),
      },
      signal,
    );
    const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
    const refusal = result.isError ? refusalOf(text) : undefined;
    return refusal ? `Not run: ${refusal}` : formatShellReply(input.command, text);
  } finally {
    sandboxed.sandbox?.endTurn();
  }
}

/** The broker, telling `onApprovalRequested` the id of each request it takes (the shell's reply shows the question, so chats are not prompted again). */
function observedBroker(input: ChatShellInput): GateBroker | undefined {
  const { approvals, onApprovalRequested } = input;
  if (!approvals || !onApprovalRequested) return approvals;
  return {
    grants: approvals.grants,
    request: (request, timeoutMs) => {
      const pending = approvals.request({ ...request, promptedInChat: true }, timeoutMs);
      onApprovalRequested(pending.id);
      return pending;
    },
  };
}

/** The message of a coded tool error (denied, sandbox missing, empty command); undefined for a command's own output. */
function refusalOf(text: string): string | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    return typeof body.error === "string" && typeof body.message === "string" ? body.message : undefined;
  } catch {
    return undefined;
  }
}

/** The command and its output's last part (the footer with the exit code is at the end). */
function formatShellReply(command: string, text: string): string {
  // The output's own last newline before exec's footer would show as an empty line.
  const output = text.replace(/\n{3,}(\[[^\n]*\])$/, "\n\n$1");
  const cut =
    output.length > CHAT_SHELL_MAX_OUTPUT_CHARS
      ? `…(${output.length - CHAT_SHELL_MAX_OUTPUT_CHARS} earlier characters cut)\n${output.slice(-CHAT_SHELL_MAX_OUTPUT_CHARS)}`
      : output;
  return `$ ${command}\n${cut}`;
}
