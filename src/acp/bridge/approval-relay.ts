import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { PromptRuns } from "./prompt-runs.js";
import type { BridgeGateway } from "./types.js";

type AskIde = (request: RequestPermissionRequest) => Promise<RequestPermissionResponse>;

const OPTIONS: PermissionOption[] = [
  { optionId: "allow-once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow-always", name: "Allow always", kind: "allow_always" },
  { optionId: "deny", name: "Deny", kind: "reject_once" },
];

type Decision = "allow-once" | "allow-always" | "deny";

interface ApprovalRequest {
  id: string;
  command?: string;
  sessionKey?: string;
}

/** The gateway broadcasts the request itself; OpenClaw nests it under `request`. Both are read. */
function parseRequest(payload: unknown): ApprovalRequest | undefined {
  if (!payload || typeof payload !== "object") return undefined;
  const p = payload as { id?: unknown; request?: unknown };
  const body = (p.request && typeof p.request === "object" ? p.request : p) as { command?: unknown; sessionKey?: unknown };
  if (typeof p.id !== "string") return undefined;
  return {
    id: p.id,
    command: typeof body.command === "string" ? body.command : undefined,
    sessionKey: typeof body.sessionKey === "string" ? body.sessionKey : undefined,
  };
}

/**
 * Exec approvals of a session with a prompt in flight become `session/request_permission` in
 * the IDE; the answer goes back as `exec.approval.resolve`. No answer, a cancelled request or
 * a prompt that ended first is a deny. Approvals of other sessions are left to other approvers.
 */
export function createApprovalRelay(gateway: BridgeGateway, runs: PromptRuns, askIde: AskIde, log: (line: string) => void) {
  const relayed = new Set<string>();

  const resolve = async (id: string, decision: Decision) => {
    try {
      await gateway.call("exec.approval.resolve", { id, decision });
    } catch (err) {
      log(`exec.approval.resolve ${id} (${decision}) failed: ${(err as Error).message}`);
    }
  };

  return {
    async onRequested(payload: unknown): Promise<void> {
      const request = parseRequest(payload);
      if (!request?.sessionKey || relayed.has(request.id)) return;
      const matching = runs.activeForKey(request.sessionKey);
      // With two prompts on one gateway session nobody can tell which one asked.
      if (matching.length !== 1) return;
      const run = matching[0]!;
      relayed.add(request.id);
      let decision: Decision = "deny";
      try {
        const response = await askIde({
          sessionId: run.session.sessionId,
          toolCall: {
            toolCallId: `exec-approval:${request.id}`,
            title: request.command ? `exec: ${request.command}` : "Command approval requested",
            kind: "execute",
            status: "pending",
            rawInput: { command: request.command, approvalId: request.id },
          },
          options: OPTIONS,
        });
        if (response.outcome.outcome === "selected") {
          const chosen = OPTIONS.find((o) => o.optionId === (response.outcome as { optionId: string }).optionId);
          if (chosen) decision = chosen.optionId as Decision;
        }
      } catch (err) {
        log(`session/request_permission for approval ${request.id} failed: ${(err as Error).message}`);
      }
      if (runs.get(run.runId) !== run) decision = "deny";
      await resolve(request.id, decision);
      relayed.delete(request.id);
    },
  };
}
