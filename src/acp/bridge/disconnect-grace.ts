import { messageText, unsentTail, type PromptRun, type PromptRuns } from "./prompt-runs.js";
import type { BridgeGateway } from "./types.js";

/** How long prompts in flight wait for a lost gateway connection to come back. */
export const DISCONNECT_GRACE_MS = 5_000;

/**
 * When the gateway connection drops, prompts in flight wait up to the grace period. If it comes
 * back in time, each prompt is reconciled with the gateway (`agent.wait` with no wait): a run
 * that is still going keeps streaming, one that ended meanwhile is finished from the
 * transcript. Prompts still waiting when the grace runs out fail with a notice that says their
 * outcome is unknown.
 */
export function watchGatewayConnection(gateway: BridgeGateway, runs: PromptRuns, graceMs: number, log: (line: string) => void) {
  let generation = 0;
  let downReason: string | undefined;
  let timer: NodeJS.Timeout | undefined;

  const giveUp = (run: PromptRun, why: string) => {
    runs.sendText(run, `\n\n[OpenClaw] ${why} The outcome of this prompt is unknown: check the session (session/load) before retrying.`);
    run.settle(new Error(`openclaw acp: ${why}`));
  };

  const expire = (gen: number) => {
    for (const run of runs.all()) if (run.lostConnection === gen) giveUp(run, `the gateway connection was lost (${downReason}) and did not come back within ${graceMs / 1000} s.`);
  };

  const reconcile = async (run: PromptRun) => {
    run.lostConnection = undefined;
    let status: string;
    try {
      status = (await gateway.call<{ status: string }>("agent.wait", { runId: run.runId, timeoutMs: 0 })).status;
    } catch (err) {
      giveUp(run, `after reconnecting, the gateway no longer knows this run (${(err as Error).message}).`);
      return;
    }
    if (status === "timeout") return; // still running: its events arrive on the new connection
    try {
      const history = await gateway.call<{ messages: { role: string }[] }>("chat.history", { sessionKey: run.session.sessionKey, limit: 1 });
      const last = history.messages.at(-1);
      if (last?.role === "assistant") runs.sendText(run, unsentTail(run, messageText(last)));
    } catch (err) {
      log(`chat.history after reconnect failed: ${(err as Error).message}`);
    }
    run.settle({ stopReason: "end_turn" });
  };

  gateway.onConnectionChange(({ connected, reason }) => {
    clearTimeout(timer);
    if (!connected) {
      generation += 1;
      downReason = reason;
      const gen = generation;
      for (const run of runs.all()) run.lostConnection = gen;
      timer = setTimeout(() => expire(gen), graceMs);
      return;
    }
    downReason = undefined;
    for (const run of runs.all()) if (run.lostConnection !== undefined) void reconcile(run);
  });
}
