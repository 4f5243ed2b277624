import path from "node:path";
import { Type } from "@sinclair/typebox";
import { execPolicyFromConfig } from "../../agents/approvals/exec-gate-from-config.js";
import type { ExecGrantFile } from "../../agents/approvals/exec-grant-file.js";
import { sameGrant } from "../../agents/approvals/exec-grants.js";
import { ErrorCodes, GatewayError, invalidRequest } from "../protocol/errors.js";
import type { GatewayRuntime } from "../runtime.js";
import { planApprovalsEdit } from "./exec-approvals-edit.js";
import { execApprovalsSnapshot } from "./exec-approvals-snapshot.js";
import type { MethodRegistry } from "./registry.js";

type Grants = Pick<ExecGrantFile, "all" | "revoke">;

/**
 * `exec.approvals.get` (what OpenClaw's `openclaw approvals get --gateway` reads) answers the exec
 * policy this gateway enforces and every agent's `allow-always` grants, in OpenClaw's
 * approvals-file shape. `exec.approvals.set` (what `openclaw approvals allowlist remove` and
 * `approvals set` send) takes back the grants the file leaves out; the policy itself is changed in
 * the config, so a file that changes it is refused (exec-approvals-edit.ts).
 */
export function registerExecPolicyMethods(registry: MethodRegistry, grants: Grants): void {
  const snapshot = (runtime: Pick<GatewayRuntime, "config" | "configFilePath">) => {
    const config = runtime.config();
    return execApprovalsSnapshot(execPolicyFromConfig(config), grants.all(), { configFile: runtime.configFilePath(), setsToolsExec: config.tools?.exec !== undefined });
  };

  registry.register({
    name: "exec.approvals.get",
    scope: "operator.admin",
    params: Type.Object({}, { additionalProperties: false }),
    handler: (_params, { runtime }) => snapshot(runtime),
  });

  registry.register({
    name: "exec.approvals.set",
    scope: "operator.admin",
    params: Type.Object({ file: Type.Unknown(), baseHash: Type.Optional(Type.String()) }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const current = snapshot(runtime);
      if (!params.baseHash) throw invalidRequest("exec approvals base hash required; re-run exec.approvals.get and retry");
      if (params.baseHash !== current.hash) throw invalidRequest("exec approvals changed since last load; re-run exec.approvals.get and retry");
      const edit = planApprovalsEdit(params.file, current.file, path.basename(runtime.configFilePath()));
      if ("refused" in edit) throw invalidRequest(edit.refused);
      const kept = edit.kept;
      try {
        grants.revoke((agentId, grant) => (kept.get(agentId) ?? []).some((entry) => sameGrant(entry, grant)));
      } catch (err) {
        throw new GatewayError({ code: ErrorCodes.UNAVAILABLE, message: `allow-always grants not taken back (nothing changed): ${(err as Error).message}` });
      }
      return snapshot(runtime);
    },
  });
}
