import type { OpenClawConfig } from "../../config/index.js";
import { DEFAULT_SAFE_BINS, type ExecPolicySettings } from "./exec-policy.js";
import { createExecApprovalGate, type ExecGateReport, type GateBroker } from "./policy-gate.js";

/** The exec policy `tools.exec` sets, its defaults applied: what every exec gate enforces. */
export function execPolicyFromConfig(config: OpenClawConfig): ExecPolicySettings {
  const exec = config.tools?.exec ?? {};
  return { security: exec.security ?? "full", ask: exec.ask ?? "off", allowlist: exec.allowlist ?? [], safeBins: exec.safeBins ?? DEFAULT_SAFE_BINS };
}

/** The exec gate `tools.exec` describes (security, ask, allowlist, safe bins, approval timeout): one for an agent turn or a `/bash` command. */
export function execGateFromConfig(config: OpenClawConfig, broker?: GateBroker, observe?: (report: ExecGateReport) => void) {
  return createExecApprovalGate(execPolicyFromConfig(config), broker, (config.tools?.exec?.approvalTimeoutSeconds ?? 1800) * 1000, observe);
}
