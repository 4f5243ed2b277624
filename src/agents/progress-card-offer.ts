import type { OpenClawConfig } from "../config/index.js";
import { isSubagentSessionKey } from "../sessions/keys/index.js";

/**
 * Whether a run is offered progress_card: it needs a session the gateway keeps a card for (not a
 * one-off session: `hasCards` says so), and belongs to the session the user follows, so a
 * sub-agent (spawnDepth > 0 or a sub-agent key) never gets it; `tools.updatePlan: false` (OpenClaw's kill switch) takes it from every run.
 */
export function offersProgressCard(config: OpenClawConfig, sessionKey: string | undefined, spawnDepth: number | undefined, hasCards: boolean): boolean {
  if (!hasCards || !sessionKey || config.tools?.updatePlan === false) return false;
  return (spawnDepth ?? 0) === 0 && !isSubagentSessionKey(sessionKey);
}
