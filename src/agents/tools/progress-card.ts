import { Type } from "@sinclair/typebox";
import { checkProgressCardInput, progressCardCounts, ProgressCardRefusal, PROGRESS_CARD_LIMITS } from "../../sessions/progress-card/index.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool } from "../types.js";

const ProgressCardParameters = Type.Object({
  plan: Type.Optional(
    Type.Array(
      Type.Object({
        step: Type.String({ description: "What this step does, in a short line." }),
        status: Type.Union([Type.Literal("pending"), Type.Literal("in_progress"), Type.Literal("completed")]),
      }),
      { description: `Ordered steps, at most ${PROGRESS_CARD_LIMITS.steps}; at most one in_progress.` },
    ),
  ),
  markdown: Type.Optional(Type.String({ description: "A compact note: result, blocker or next action. Do not repeat the plan." })),
});

/**
 * progress_card (OpenClaw's, which replaced update_plan): the session's one durable status card,
 * an ordered plan, a Markdown note, or both. Each call replaces the whole card; a call with
 * neither clears it. The session and agent come from the running turn, never from the model.
 * The transcript keeps only the short receipt this returns; the card itself is the session's.
 */
export function createProgressCardTool(): AgentTool<typeof ProgressCardParameters> {
  return {
    name: "progress_card",
    description:
      "Publish this session's progress card for substantial work with at least two meaningful sequential steps (never for greetings, quick questions or " +
      "one-step requests). Each call replaces the whole card: send the full plan (at most one step in_progress) and/or a short Markdown note. " +
      "Update it when progress meaningfully changes; call with {} to clear it.",
    parameters: ProgressCardParameters,
    async execute(args, ctx) {
      const host = ctx.services.progressCards;
      if (!host || !ctx.sessionKey) return toolError(TOOL_ERRORS.progressCardUnavailable("Progress cards need a session kept by the gateway."));
      const checked = checkProgressCardInput(args);
      if (!checked.ok) return toolError(TOOL_ERRORS.progressCardInvalid(checked.rule));
      try {
        const card = await host.write(ctx.sessionKey, ctx.agentId, checked.content);
        const counts = progressCardCounts(card);
        const details = { revision: card?.revision ?? null, counts };
        if (!card) return toolText("Progress card cleared", details);
        return toolText(
          counts ? `Progress card updated (rev ${card.revision}, ${counts.completed}/${counts.total} done)` : `Progress card updated (rev ${card.revision})`,
          details,
        );
      } catch (err) {
        if (err instanceof ProgressCardRefusal) return toolError(TOOL_ERRORS.progressCardUnavailable(err.message));
        throw err;
      }
    },
  };
}
