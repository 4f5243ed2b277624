import type { OpenClawConfig } from "../../config/index.js";
import type { ExecApprovalBroker } from "./approval-broker.js";
import { DEFAULT_SAFE_BINS } from "./exec-policy.js";
import { createExecApprovalGate, type ExecGateReport } from "./policy-gate.js";

/** The exec gate `tools.exec` describes (security, ask, allowlist, safe bins, approval timeout): one for an agent turn or a `/bash` command. */
export function execGateFromConfig(config: OpenClawConfig, broker?: Pick<ExecApprovalBroker, "request">, observe?: (report: ExecGateReport) => void) {
  const exec = config.tools?.exec ?? {};
  return createExecApprovalGate(
    { security: exec.security ?? "full", ask: exec.ask ?? "off", allowlist: exec.allowlist ?? [], safeBins: exec.safeBins ?? DEFAULT_SAFE_BINS },
    broker,
    (exec.approvalTimeoutSeconds ?? 1800) * 1000,
    observe,
  );
}
