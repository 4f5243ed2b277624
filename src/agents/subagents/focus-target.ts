import { taskLabel } from "./announce-format.js";
import { listRows, resolveTarget } from "./subagent-control.js";
import type { SubagentService } from "./subagent-service.js";

export type FocusTarget = { ok: true; sessionKey: string; label: string } | { ok: false; message: string };

/**
 * The sub-agent `/focus <target>` names, looked up as `/subagents` does (`#n`, label, runId,
 * session key) among the sub-agents of `ownerSessionKeys` — the sessions of the chat the command
 * was typed in — so a chat can only ever bind its own sub-agents. Only a live child can be
 * focused: an ended one would take no part in the conversation.
 */
export function resolveFocusTarget(service: SubagentService, ownerSessionKeys: readonly string[], target: string, now = Date.now()): FocusTarget {
  const wanted = target.trim();
  for (const owner of ownerSessionKeys) {
    const record = resolveTarget(service.registry.descendantsOf(owner), listRows(service, owner, now), wanted);
    if (!record) continue;
    if (record.endedAt) return { ok: false, message: `Sub-agent "${taskLabel(record)}" already ended (${record.outcome ?? "ended"}); only a running or idle one can be focused.` };
    return { ok: true, sessionKey: record.childSessionKey, label: taskLabel(record) };
  }
  return { ok: false, message: `No sub-agent of this chat matches "${wanted}". /subagents list shows them (#n, label or id).` };
}
