import { isBuiltInTool, isToolGroup, MCP_TOOLS_ENTRY } from "./tool-groups.js";
import { compileToolList } from "./tool-matcher.js";
import { normalizeToolName } from "./tool-names.js";
import { isWildcard } from "./tool-pattern.js";
import type { PolicyStage, PolicyStep, RemovedTool } from "./types.js";

/** An allow or deny list and where it was configured. */
export interface LocatedList {
  path: string;
  entries: readonly string[];
  /** Names an allow list that is not literally `allow`, e.g. `profile "coding"`. */
  name?: string;
}

/**
 * Applies the layers one after the other to a shrinking set and keeps the record an
 * explanation needs. Every operation only removes: nothing here can put a tool back, which is
 * what makes "a later layer never re-grants" true by construction rather than by care.
 */
export class PolicyRecorder {
  current: string[];
  readonly steps: PolicyStep[] = [];
  readonly removed: RemovedTool[] = [];
  readonly warnings: string[] = [];
  private readonly available: readonly string[];

  constructor(available: readonly string[]) {
    this.available = available;
    this.current = [...available];
  }

  /** Record a layer that had nothing to apply. */
  unchanged(stage: PolicyStage, source: string, detail: string): void {
    this.steps.push({ stage, source, applied: false, detail, before: [...this.current], after: [...this.current] });
  }

  /**
   * One scope's allow/deny. Deny wins inside the scope; an empty allow list restricts
   * nothing (so `allow: []` cannot silently remove every tool).
   */
  applyAllowDeny(stage: PolicyStage, source: string, allow: LocatedList | undefined, deny: LocatedList | undefined): void {
    const allowList = allow && allow.entries.length > 0 ? allow : undefined;
    const denyList = deny && deny.entries.length > 0 ? deny : undefined;
    if (!allowList && !denyList) {
      this.unchanged(stage, source, "not configured");
      return;
    }
    const allowMatcher = allowList ? this.compile(allowList) : undefined;
    const denyMatcher = denyList ? this.compile(denyList) : undefined;
    this.removeWhere(stage, source, describeLists(allowList, denyList), (tool) => {
      const denied = denyMatcher?.matchOf(tool);
      if (denied !== undefined && denyList) return { layer: denyList.path, reason: `matches deny entry "${denied}"` };
      if (allowMatcher && allowList && !isAllowed(tool, allowMatcher.matchOf)) {
        return { layer: allowList.path, reason: `not in ${allowList.name ?? "the allow list"}` };
      }
      return undefined;
    });
  }

  /** Remove each tool for which `why` returns a reason. */
  removeWhere(stage: PolicyStage, source: string, detail: string, why: (tool: string) => { layer: string; reason: string } | undefined): void {
    const before = [...this.current];
    const kept: string[] = [];
    for (const tool of before) {
      const verdict = why(tool);
      if (verdict) this.removed.push({ tool, stage, ...verdict });
      else kept.push(tool);
    }
    this.current = kept;
    this.steps.push({ stage, source, applied: true, detail, before, after: [...kept] });
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  private compile(list: LocatedList) {
    const matcher = compileToolList(list.entries);
    for (const group of matcher.unknownGroups) this.warn(`${list.path}: "${group}" is not a known tool group; it matches nothing`);
    for (const entry of matcher.entries) {
      if (isToolGroup(entry) || isWildcard(entry) || entry.toLowerCase() === MCP_TOOLS_ENTRY) continue;
      const known = isBuiltInTool(entry) || this.available.some((tool) => normalizeToolName(tool) === normalizeToolName(entry));
      if (!known) this.warn(`${list.path}: "${entry}" is not the name of any known or available tool`);
    }
    return matcher;
  }
}

// The reference's one cross-tool rule: allowing `write` also allows `apply_patch` (a patch is
// a write), while denying `write` does not deny `apply_patch`; deny lists must name it.
function isAllowed(tool: string, matchOf: (name: string) => string | undefined): boolean {
  if (matchOf(tool) !== undefined) return true;
  return normalizeToolName(tool) === "apply_patch" && matchOf("write") !== undefined;
}

function describeLists(allow: LocatedList | undefined, deny: LocatedList | undefined): string {
  const parts: string[] = [];
  if (allow) parts.push(`${allow.name ?? "allow"}: ${allow.entries.join(", ")}`);
  if (deny) parts.push(`deny: ${deny.entries.join(", ")}`);
  return parts.join("; ");
}
