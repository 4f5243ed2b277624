import type { ConversationPort } from "../agents/conversation-port.js";
import type { HookAgentTurnRequest, HookAgentTurnRunner } from "../hooks/internal/types.js";
import type { Logger } from "../infra/logger.js";

/**
 * Agent turns internal hooks ask for (docs/automation.md#internal-hooks): each runs in the agent's
 * `hook:<hook name>` session, started afresh so one boot does not pile onto the last, on the
 * owner's behalf — only hooks the operator enabled run at all. Its reply stays in that session;
 * a hook that wants a chat told has the agent use the `message` tool.
 */
export function hookAgentTurnRunner(conversations: () => Pick<ConversationPort, "resolveSessionKey" | "reset" | "submit">, logger: Logger): HookAgentTurnRunner {
  return (hookName: string, request: HookAgentTurnRequest) => {
    void run(conversations(), hookName, request).catch((err: Error) => logger.warn({ hook: hookName, err: err.message }, "internal hook agent turn failed"));
  };

  async function run(port: Pick<ConversationPort, "resolveSessionKey" | "reset" | "submit">, hookName: string, request: HookAgentTurnRequest): Promise<void> {
    const { sessionKey, agentId } = port.resolveSessionKey(`hook:${hookName}`, request.agentId);
    port.reset({ sessionKey, method: "agent" });
    const outcome = await port.submit({
      message: request.message,
      sessionKey,
      agentId,
      method: "agent",
      senderIsOwner: true,
      provenance: { kind: "internal_system", sourceTool: `hook:${hookName}` },
    });
    if (outcome.kind !== "accepted") {
      logger.warn({ hook: hookName, sessionKey, outcome: outcome.kind }, "internal hook agent turn was not accepted");
      return;
    }
    const run = await outcome.run.done;
    const level = run.status === "ok" ? "info" : "warn";
    logger[level]({ hook: hookName, sessionKey, runId: run.runId, status: run.status, err: run.result?.error?.message }, "internal hook agent turn ended");
  }
}
