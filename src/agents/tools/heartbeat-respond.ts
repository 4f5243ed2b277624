import { Type, type TLiteral, type TUnion } from "@sinclair/typebox";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import { HEARTBEAT_OUTCOMES, HEARTBEAT_PRIORITIES, type AgentTool, type HeartbeatReport } from "../types.js";

function literals<T extends string>(values: readonly T[]): TUnion<TLiteral<T>[]> {
  return Type.Union(values.map((value) => Type.Literal(value)));
}

const HeartbeatRespondParameters = Type.Object({
  outcome: literals(HEARTBEAT_OUTCOMES),
  notify: Type.Boolean({ description: "true: the user is sent notificationText (else summary); false: nothing is sent." }),
  summary: Type.String({ description: "What this heartbeat found, in a sentence (kept in the session)." }),
  notificationText: Type.Optional(Type.String({ description: "With notify=true: the concise alert the user gets." })),
  reason: Type.Optional(Type.String()),
  priority: Type.Optional(literals(HEARTBEAT_PRIORITIES)),
  nextCheck: Type.Optional(Type.String({ description: "When or what to look at next time." })),
});

/**
 * A heartbeat turn's report: whether the user is interrupted and with what. Offered only in
 * heartbeat turns; the first accepted call decides over the turn's final text (the heartbeat
 * runner reads it from the turn's slot), so a second call is refused.
 */
export function createHeartbeatRespondTool(): AgentTool<typeof HeartbeatRespondParameters> {
  return {
    name: "heartbeat_respond",
    description:
      "Report this heartbeat's outcome. notify=false: nothing is sent to the user. notify=true: the user gets notificationText " +
      "(keep it short). Call it once; it decides over your text reply.",
    parameters: HeartbeatRespondParameters,
    async execute(args, ctx) {
      const slot = ctx.services.heartbeatReport;
      if (!slot) return toolError(TOOL_ERRORS.notAHeartbeat());
      const summary = args.summary.trim();
      if (!summary) return toolError(TOOL_ERRORS.argumentsInvalid("summary", "must not be empty"));
      if (slot.accepted) return toolError(TOOL_ERRORS.heartbeatAlreadyReported());
      const report: HeartbeatReport = {
        outcome: args.outcome,
        notify: args.notify,
        summary,
        ...optionalText("notificationText", args.notificationText),
        ...optionalText("reason", args.reason),
        ...(args.priority ? { priority: args.priority } : {}),
        ...optionalText("nextCheck", args.nextCheck),
      };
      slot.accepted = report;
      return toolText(JSON.stringify({ status: "accepted", ...report }, null, 2));
    },
  };
}

function optionalText<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  const text = value?.trim();
  return text ? ({ [key]: text } as Record<K, string>) : {};
}

/** What the user is sent for a report: nothing (notify=false), else its notification text or its summary. */
export function heartbeatNotification(report: HeartbeatReport): string {
  return report.notify ? (report.notificationText ?? report.summary) : "";
}
