import type { ExecApprovalBroker } from "../agents/approvals/approval-broker.js";
import { PairingStore } from "../channels/access/pairing-store.js";
import type { GatewayAdminPort } from "../conversations/commands/gateway-admin-port.js";
import { createChatShellRunner } from "./chat-shell-runner.js";
import type { GatewayRuntime } from "./runtime.js";

/** How long `/restart` waits so its announcement reaches the chat before the gateway goes down. */
export const RESTART_ANNOUNCE_DELAY_MS = 1_000;

/**
 * The gateway behind the owner's chat commands: config writes applied as `config.set` applies
 * them, the pairing store read, `/bash` through the exec tool's policy and approvals, and
 * `/restart` through the gateway's own restart.
 */
export function createGatewayAdminPort(deps: {
  runtime(): GatewayRuntime;
  approvals(): ExecApprovalBroker;
  /** Stops this gateway and starts it again after `delayMs`; absent when it runs inside another program and cannot restart itself. */
  requestRestart?: (reason: string, delayMs: number) => { scheduled: true } | { scheduled: false; reason: string };
}): GatewayAdminPort {
  let pairing: PairingStore | undefined;
  return {
    configFilePath: () => deps.runtime().configFilePath(),
    configWritten: () => {
      const runtime = deps.runtime();
      const outcome = runtime.reloadConfigNow();
      runtime.broadcast("config.changed", { path: runtime.configFilePath(), hash: runtime.loadedConfig().hash, ts: Date.now() });
      runtime.logger.info({ configPath: runtime.configFilePath(), changedPaths: outcome.changedPaths }, "config written by a chat command");
      return { applied: outcome.applied, restartRequiredPaths: outcome.restartRequiredPaths };
    },
    runtimeOverrides: () => deps.runtime().runtimeOverrides,
    pairedSenders: (channel, accountId) => {
      pairing ??= new PairingStore(deps.runtime().stateDir);
      return pairing.approvedSenders(channel, accountId);
    },
    restart: (reason) => {
      if (!deps.requestRestart) return { ok: false, message: "Not restarted: this gateway cannot restart itself; restart it with `openclaw gateway restart`." };
      const plan = deps.requestRestart(reason, RESTART_ANNOUNCE_DELAY_MS);
      return plan.scheduled ? { ok: true } : { ok: false, message: `Not restarted: ${plan.reason}.` };
    },
    shell: createChatShellRunner(deps),
  };
}

/** The same port for an operator client without `operator.admin`: it may read, not change. */
export function readOnlyAdminPort(port: GatewayAdminPort): GatewayAdminPort {
  return { ...port, writeRefusal: "Changing the gateway from a chat command needs the operator.admin scope on this connection." };
}
