import type { ToolServices } from "../types.js";
import { isExecApprovalGate, type ExecApprovalGate } from "./exec-approval-gate.js";
import { ProcessRegistry } from "./process-registry.js";

/**
 * The services the core tools read from `ctx.services`:
 * - `processes`: the ProcessRegistry behind exec's background sessions and the process tool.
 *   Without it exec runs everything in the foreground.
 * - `execApprovals`: an ExecApprovalGate consulted before every command. Absent: all allowed.
 * - `webFetchAllowPrivate`: `true` lets web_fetch reach loopback, private and link-local
 *   addresses (tests against a local server, trusted intranets). Anything else: refused.
 */
export interface CoreToolServices extends ToolServices {
  processes?: ProcessRegistry;
  execApprovals?: ExecApprovalGate;
  webFetchAllowPrivate?: boolean;
}

/** One set per gateway process: the registry must outlive the runs that start processes. */
export function createToolServices(overrides: Partial<CoreToolServices> = {}): CoreToolServices {
  return { processes: new ProcessRegistry(), ...overrides };
}

export function getProcessRegistry(services: ToolServices): ProcessRegistry | undefined {
  return services.processes instanceof ProcessRegistry ? services.processes : undefined;
}

export function getExecApprovalGate(services: ToolServices): ExecApprovalGate | undefined {
  return isExecApprovalGate(services.execApprovals) ? services.execApprovals : undefined;
}

export function isPrivateWebFetchAllowed(services: ToolServices): boolean {
  return services.webFetchAllowPrivate === true;
}
