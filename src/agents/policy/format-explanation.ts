import { explainToolPolicy } from "./explain-tool-policy.js";
import type { EffectiveTools } from "./types.js";
import { alignColumns } from "../../infra/text-table.js";

/**
 * The output of `openclaw tools explain`: a header naming the request, the final tools, a
 * table of layers (how many tools each left), and one line per removed tool naming the config
 * key that removed it. `json` gives the same facts for scripts.
 */
export function formatToolPolicyExplanation(result: EffectiveTools, options: { json?: boolean } = {}): string {
  if (options.json) {
    return JSON.stringify(
      {
        context: result.context,
        allowed: result.allowed,
        tools: explainToolPolicy(result),
        steps: result.steps,
        warnings: result.warnings,
      },
      null,
      2,
    );
  }
  const lines = [describeContext(result), "", `Allowed (${result.allowed.length}): ${result.allowed.join(", ") || "(none)"}`];
  if (result.allowed.length === 0) lines.push("  No tool is left: a run with this policy fails before calling the model.");

  lines.push("", "Layers:");
  const rows = result.steps.map((step, i) => [String(i + 1), step.stage, step.source, step.applied ? `${step.before.length} → ${step.after.length}` : "-", step.detail]);
  lines.push(...alignColumns([["#", "layer", "source", "tools", "rule"], ...rows]).map((line) => `  ${line}`));

  const removed = explainToolPolicy(result).filter((v) => !v.allowed);
  if (removed.length > 0) {
    lines.push("", "Removed:");
    const width = Math.max(...removed.map((v) => v.tool.length));
    for (const v of removed) lines.push(`  ${v.tool.padEnd(width)} — removed by ${v.removedBy} (${v.reason})`);
  }
  if (result.warnings.length > 0) {
    lines.push("", "Warnings:");
    for (const warning of result.warnings) lines.push(`  - ${warning}`);
  }
  return lines.join("\n");
}

function describeContext(result: EffectiveTools): string {
  const c = result.context;
  const model = c.provider ? (c.modelId ? `${c.provider}/${c.modelId}` : c.provider) : (c.modelId ?? "(default)");
  return [
    `Tool policy for agent "${c.agentId}"`,
    `model ${model}`,
    `channel ${c.channel ?? "(none)"}`,
    c.senderIsOwner ? "owner sender" : "non-owner sender",
    c.sandboxed ? "sandboxed" : "not sandboxed",
  ].join(" · ");
}
