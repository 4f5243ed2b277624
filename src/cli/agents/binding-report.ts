import { printable } from "../printable.js";
import type { AddedBindings, BindingConflict, RemovedBindings } from "../../agents/roster/binding-edits.js";
import { describeBinding } from "../../agents/roster/route-bindings.js";

const conflictText = ({ binding, agentId }: BindingConflict) => `${describeBinding(binding)} (agent=${agentId})`;

/** Added bindings in the JSON of `agents add` and `agents bind`: OpenClaw's `{added, updated, skipped, conflicts}`, one description each. */
export function bindingsSummary(result: AddedBindings): { added: string[]; updated: string[]; skipped: string[]; conflicts: string[] } {
  return {
    added: result.added.map(describeBinding),
    updated: result.updated.map(describeBinding),
    skipped: result.skipped.map(describeBinding),
    conflicts: result.conflicts.map(conflictText),
  };
}

export function removedSummary(result: Pick<RemovedBindings, "removed"> & Partial<RemovedBindings>): { removed: string[]; missing: string[]; conflicts: string[] } {
  return { removed: result.removed.map(describeBinding), missing: (result.missing ?? []).map(describeBinding), conflicts: (result.conflicts ?? []).map(conflictText) };
}

function block(title: string, items: string[]): string[] {
  return items.length > 0 ? [title, ...items.map((item) => `- ${printable(item)}`)] : [];
}

/** The added, upgraded and present bindings on stdout; those another agent has on stderr. */
export function printBindingChanges(result: AddedBindings, opts: { quietWhenNone?: boolean } = {}): void {
  const summary = bindingsSummary(result);
  const none = summary.added.length === 0 && summary.updated.length === 0 && !opts.quietWhenNone ? ["No new bindings added."] : [];
  const lines = [...block("Added bindings:", summary.added), ...none, ...block("Updated bindings:", summary.updated), ...block("Already present:", summary.skipped)];
  if (lines.length > 0) process.stdout.write(`${lines.join("\n")}\n`);
  const conflicts = block("Skipped bindings already claimed by another agent:", summary.conflicts);
  if (conflicts.length > 0) process.stderr.write(`${conflicts.join("\n")}\n`);
}

/** The removed and absent bindings on stdout; those another agent has on stderr. */
export function printRemovedBindings(result: RemovedBindings): void {
  const summary = removedSummary(result);
  const lines = summary.removed.length > 0 ? block("Removed bindings:", summary.removed) : ["No bindings removed."];
  process.stdout.write(`${[...lines, ...block("Not found:", summary.missing)].join("\n")}\n`);
  const conflicts = block("Bindings another agent has (kept):", summary.conflicts);
  if (conflicts.length > 0) process.stderr.write(`${conflicts.join("\n")}\n`);
}
