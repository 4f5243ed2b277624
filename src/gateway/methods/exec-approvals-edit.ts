import { isDeepStrictEqual } from "node:util";
import type { ExecApprovalsFile, GrantEntry } from "./exec-approvals-snapshot.js";

export type ApprovalsEdit = { kept: Map<string, GrantEntry[]> } | { refused: string };

/**
 * What `exec.approvals.set` can change on this gateway: which `allow-always` grants stay. The
 * file must carry the policy exactly as `exec.approvals.get` gave it (`defaults`, the `*` agent's
 * allowlist: `tools.exec` in the config is where those change) and may leave grant entries out,
 * which takes those grants back; an entry that is not one of the agent's grants is refused, since
 * only an `allow-always` answer makes one. Returns each agent's grants to keep, or the reason the
 * file is refused (then nothing changes).
 */
export function planApprovalsEdit(incoming: unknown, current: ExecApprovalsFile, configFile: string): ApprovalsEdit {
  if (typeof incoming !== "object" || incoming === null || Array.isArray(incoming)) return { refused: "exec approvals file is required" };
  const file = incoming as { version?: unknown; defaults?: unknown; agents?: unknown };
  const policyRefusal = {
    refused: `not supported: the exec policy (defaults, the "*" allowlist, per-agent settings) is tools.exec in ${configFile}; change it there (e.g. openclaw config set tools.exec.security allowlist). exec.approvals.set here only takes back allow-always grants, the entries it leaves out`,
  };
  if ((file.version !== undefined && file.version !== 1) || !isDeepStrictEqual(file.defaults, current.defaults)) return policyRefusal;
  const agents = file.agents ?? {};
  if (typeof agents !== "object" || agents === null || Array.isArray(agents)) return policyRefusal;
  const incomingAgents = agents as Record<string, unknown>;
  if (!isDeepStrictEqual(incomingAgents["*"], current.agents["*"])) return policyRefusal;

  const kept = new Map<string, GrantEntry[]>();
  for (const [agentId, agent] of Object.entries(incomingAgents)) {
    if (agentId === "*") continue;
    if (typeof agent !== "object" || agent === null || Object.keys(agent).some((key) => key !== "allowlist")) return policyRefusal;
    const list = (agent as { allowlist?: unknown }).allowlist ?? [];
    if (!Array.isArray(list)) return policyRefusal;
    const held = (current.agents[agentId]?.allowlist ?? []).filter((entry): entry is GrantEntry => "argPattern" in entry);
    const keep: GrantEntry[] = [];
    for (const entry of list as { pattern?: unknown; argPattern?: unknown }[]) {
      const grant = held.find((g) => g.pattern === entry?.pattern && g.argPattern === entry?.argPattern);
      if (!grant) {
        const name = typeof entry?.pattern === "string" ? entry.pattern : JSON.stringify(entry);
        return {
          refused: `not supported: ${name} is not an allow-always grant of agent "${agentId}": grants are made by answering allow-always; to allow a program for every agent, add it to tools.exec.allowlist in ${configFile}`,
        };
      }
      keep.push(grant);
    }
    kept.set(agentId, keep);
  }
  return { kept };
}
