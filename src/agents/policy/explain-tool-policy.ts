import type { EffectiveTools, PolicyStage } from "./types.js";

/** One available tool's fate: kept, or removed by which config key and why. */
export interface ToolVerdict {
  tool: string;
  allowed: boolean;
  removedBy?: string;
  reason?: string;
  stage?: PolicyStage;
}

/** Every tool that was available, in registration order, with the layer that removed it. */
export function explainToolPolicy(result: EffectiveTools): ToolVerdict[] {
  const available = result.steps[0]?.before ?? result.allowed;
  const removedBy = new Map(result.removed.map((r) => [r.tool, r]));
  return available.map((tool) => {
    const removal = removedBy.get(tool);
    if (!removal) return { tool, allowed: true };
    return { tool, allowed: false, removedBy: removal.layer, reason: removal.reason, stage: removal.stage };
  });
}
