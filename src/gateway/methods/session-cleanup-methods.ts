import { Type } from "@sinclair/typebox";
import { normalizeAgentId } from "../../agents/agent-config.js";
import { invalidRequest } from "../protocol/errors.js";
import type { SessionEvents } from "../session-change-events.js";
import { runSessionsCleanup, SessionsCleanupRefusal } from "../sessions-cleanup.js";
import { summariesOf } from "../sessions-cleanup-summary.js";
import type { MethodRegistry } from "./registry.js";

const AgentId = Type.String({ minLength: 1, maxLength: 128 });

/**
 * `sessions.cleanup` (docs/protocol.md): the maintenance pass the gateway runs hourly, now, on the
 * sessions it holds in memory (which is why `openclaw sessions cleanup` comes here while a
 * gateway runs). OpenClaw's CLI sends `agent` for `agentId`, and its repairs `fixMissing` and
 * `fixDmScope` as false, which is what this gateway does; true is refused.
 */
export function registerSessionCleanupMethods(registry: MethodRegistry, events: SessionEvents): void {
  registry.register({
    name: "sessions.cleanup",
    scope: "operator.admin",
    params: Type.Object(
      {
        dryRun: Type.Optional(Type.Boolean()),
        enforce: Type.Optional(Type.Boolean()),
        agentId: Type.Optional(AgentId),
        agent: Type.Optional(AgentId),
        allAgents: Type.Optional(Type.Boolean()),
        activeKey: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
        fixMissing: Type.Optional(Type.Boolean()),
        fixDmScope: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      if (params.fixMissing === true) {
        throw invalidRequest("not supported: fixMissing (a session whose transcript is missing gets a fresh one when the store opens, so no session lacks its transcript)");
      }
      if (params.fixDmScope === true) {
        throw invalidRequest(
          "not supported: fixDmScope (sessions an earlier session.dmScope left are archived by pruneAfter like any idle session; openclaw sessions delete removes them now)",
        );
      }
      if (params.agent !== undefined && params.agentId !== undefined && normalizeAgentId(params.agent) !== normalizeAgentId(params.agentId)) {
        throw invalidRequest(`agent "${params.agent}" and agentId "${params.agentId}" name different agents`);
      }
      const agentId = params.agentId ?? params.agent;
      let result: ReturnType<typeof runSessionsCleanup>;
      try {
        result = runSessionsCleanup(runtime.sessions(), runtime.config(), {
          dryRun: params.dryRun === true,
          enforce: params.enforce === true,
          ...(agentId !== undefined ? { agentId } : {}),
          allAgents: params.allAgents === true,
          ...(params.activeKey !== undefined ? { activeKey: params.activeKey } : {}),
        });
      } catch (err) {
        if (err instanceof SessionsCleanupRefusal) throw invalidRequest(err.message);
        throw err;
      }
      // The sessions archived are gone from the store, as after sessions.delete.
      for (const summary of summariesOf(result)) {
        if (!summary.applied) continue;
        for (const row of summary.sessions) if (row.action !== "keep") events.changed(row.key, "delete");
      }
      return result;
    },
  });
}
