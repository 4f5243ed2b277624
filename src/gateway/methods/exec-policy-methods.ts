import { createHash } from "node:crypto";
import path from "node:path";
import { Type } from "@sinclair/typebox";
import { execPolicyFromConfig } from "../../agents/approvals/exec-gate-from-config.js";
import type { ExecGrantFile } from "../../agents/approvals/exec-grant-file.js";
import { invalidRequest } from "../protocol/errors.js";
import { cwdBoundArgPattern } from "./openclaw-arg-pattern.js";
import type { MethodRegistry } from "./registry.js";

/**
 * `exec.approvals.get` (what OpenClaw's `openclaw approvals get --gateway` reads) answers the exec
 * policy this gateway enforces in OpenClaw's approvals-file shape. The policy lives in the config
 * (`tools.exec`), one for every agent, so `defaults` carries security and ask and the `*` agent
 * the allowlist; each agent's `allow-always` grants follow under its id, with `source:
 * "allow-always"`, the exact `argv` and the `cwd` they hold in. `exec.approvals.set` refuses: the
 * config is where the policy is changed.
 */
export function registerExecPolicyMethods(registry: MethodRegistry, grants: Pick<ExecGrantFile, "all">): void {
  registry.register({
    name: "exec.approvals.get",
    scope: "operator.admin",
    params: Type.Object({}, { additionalProperties: false }),
    handler: (_params, { runtime }) => {
      const config = runtime.config();
      const policy = execPolicyFromConfig(config);
      const file = {
        version: 1,
        // A request nobody answers in time is denied, always.
        defaults: { security: policy.security, ask: policy.ask, askFallback: "deny" },
        agents: {
          ...(policy.allowlist.length > 0 ? { "*": { allowlist: policy.allowlist.map((pattern) => ({ pattern })) } } : {}),
          ...Object.fromEntries(
            [...grants.all()].map(([agentId, list]) => [
              agentId,
              {
                allowlist: list.map((grant) => ({
                  pattern: grant.argv[0],
                  argPattern: cwdBoundArgPattern(grant),
                  argv: grant.argv,
                  cwd: grant.cwd,
                  source: "allow-always",
                  addedAt: grant.grantedAt,
                })),
              },
            ]),
          ),
        },
      };
      return {
        path: runtime.configFilePath(),
        // Whether the config sets tools.exec (else the defaults above apply).
        exists: config.tools?.exec !== undefined,
        // Changes exactly when the policy does.
        hash: createHash("sha256").update(JSON.stringify(file)).digest("hex"),
        file,
      };
    },
  });

  registry.register({
    name: "exec.approvals.set",
    scope: "operator.admin",
    params: Type.Object({}, { additionalProperties: true }),
    handler: (_params, { runtime }) => {
      const file = path.basename(runtime.configFilePath());
      throw invalidRequest(
        `not supported: edit tools.exec in ${file} (security, ask, allowlist; e.g. openclaw config set tools.exec.security allowlist): this gateway keeps its exec policy in the config, not in an approvals file`,
      );
    },
  });
}
