import { createHash } from "node:crypto";
import type { ExecPolicySettings } from "../../agents/approvals/exec-policy.js";
import type { ExecGrant } from "../../agents/approvals/exec-grants.js";
import { cwdBoundArgPattern } from "./openclaw-arg-pattern.js";

export interface GrantEntry {
  pattern: string;
  argPattern: string;
  argv: string[];
  cwd: string;
  source: "allow-always";
  addedAt: number;
}

export interface ExecApprovalsFile {
  version: 1;
  defaults: { security: string; ask: string; askFallback: "deny" };
  agents: Record<string, { allowlist: ({ pattern: string } | GrantEntry)[] }>;
}

export interface ExecApprovalsSnapshot {
  path: string;
  exists: boolean;
  hash: string;
  file: ExecApprovalsFile;
}

/**
 * The exec policy this gateway enforces in OpenClaw's approvals-file shape (what `openclaw
 * approvals get --gateway` reads): the policy lives in the config (`tools.exec`), one for every
 * agent, so `defaults` carries security and ask and the `*` agent the allowlist; each agent's
 * `allow-always` grants follow under its id, with the exact `argv` and the `cwd` they hold in,
 * and `argPattern` in OpenClaw's directory-bound form. `hash` changes exactly when the file does.
 */
export function execApprovalsSnapshot(
  policy: ExecPolicySettings,
  grants: ReadonlyMap<string, readonly (ExecGrant & { grantedAt: number })[]>,
  where: { configFile: string; setsToolsExec: boolean },
): ExecApprovalsSnapshot {
  const file: ExecApprovalsFile = {
    version: 1,
    // A request nobody answers in time is denied, always.
    defaults: { security: policy.security, ask: policy.ask, askFallback: "deny" },
    agents: {
      ...(policy.allowlist.length > 0 ? { "*": { allowlist: policy.allowlist.map((pattern) => ({ pattern })) } } : {}),
      ...Object.fromEntries([...grants].map(([agentId, list]) => [agentId, { allowlist: list.map(grantEntry) }])),
    },
  };
  return { path: where.configFile, exists: where.setsToolsExec, hash: createHash("sha256").update(JSON.stringify(file)).digest("hex"), file };
}

function grantEntry(grant: ExecGrant & { grantedAt: number }): GrantEntry {
  return { pattern: grant.argv[0]!, argPattern: cwdBoundArgPattern(grant), argv: grant.argv, cwd: grant.cwd, source: "allow-always", addedAt: grant.grantedAt };
}
