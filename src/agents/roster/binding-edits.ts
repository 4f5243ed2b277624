import { isRouteBinding, matchKey, ownerOf, scopeKey, type Binding } from "./route-bindings.js";

/** A binding another agent already has: it is left to that agent. */
export interface BindingConflict {
  binding: Binding;
  agentId: string;
}

export interface AddedBindings {
  /** The whole new `bindings` list (ACP bindings where they were). */
  bindings: Binding[];
  added: Binding[];
  /** Account-less bindings of the agent now scoped to the account asked for. */
  updated: Binding[];
  /** Already there for this agent. */
  skipped: Binding[];
  conflicts: BindingConflict[];
}

/**
 * Adds `agentId`'s route bindings, as OpenClaw's `agents bind` does:
 * - a binding that matches the same chats as one already there is not added twice: skipped when
 *   it is this agent's, a conflict (left to the other agent) when it is another's;
 * - a binding naming an account, when this agent has the same binding without an account (which
 *   covers the account named `default`), scopes that binding to the account in place instead of
 *   adding a second one;
 * - any other is appended, after every binding already listed.
 */
export function addRouteBindings(current: readonly Binding[], agentId: string, wanted: readonly Binding[]): AddedBindings {
  const bindings = [...current];
  const result: AddedBindings = { bindings, added: [], updated: [], skipped: [], conflicts: [] };
  for (const binding of wanted) {
    const same = bindings.find((b) => isRouteBinding(b) && matchKey(b) === matchKey(binding));
    if (same) {
      if (ownerOf(same) === agentId) result.skipped.push(binding);
      else result.conflicts.push({ binding, agentId: ownerOf(same) });
      continue;
    }
    const accountId = binding.match.accountId;
    const upgradable = accountId ? bindings.findIndex((b) => isRouteBinding(b) && ownerOf(b) === agentId && !b.match.accountId?.trim() && scopeKey(b) === scopeKey(binding)) : -1;
    if (upgradable >= 0) {
      const upgraded = { ...bindings[upgradable]!, match: { ...bindings[upgradable]!.match, accountId: accountId! } };
      bindings[upgradable] = upgraded;
      result.updated.push(upgraded);
      continue;
    }
    bindings.push(binding);
    result.added.push(binding);
  }
  return result;
}

export interface RemovedBindings {
  bindings: Binding[];
  removed: Binding[];
  /** Asked for, but this agent has no such binding. */
  missing: Binding[];
  /** Asked for, but the binding is another agent's: kept. */
  conflicts: BindingConflict[];
}

/** Removes the `agentId` route bindings that match the same chats as `wanted`; another agent's are never removed. */
export function removeRouteBindings(current: readonly Binding[], agentId: string, wanted: readonly Binding[]): RemovedBindings {
  const gone = new Set<Binding>();
  const result: RemovedBindings = { bindings: [], removed: [], missing: [], conflicts: [] };
  for (const binding of wanted) {
    const same = current.filter((b) => isRouteBinding(b) && !gone.has(b) && matchKey(b) === matchKey(binding));
    const own = same.find((b) => ownerOf(b) === agentId);
    if (own) {
      gone.add(own);
      result.removed.push(own);
    } else if (same.length > 0) result.conflicts.push({ binding, agentId: ownerOf(same[0]!) });
    else result.missing.push(binding);
  }
  result.bindings = current.filter((b) => !gone.has(b));
  return result;
}

/** Removes every route binding of `agentId`: account, peer, guild, team and role ones alike. */
export function removeAllRouteBindings(current: readonly Binding[], agentId: string): { bindings: Binding[]; removed: Binding[] } {
  const removed = current.filter((b) => isRouteBinding(b) && ownerOf(b) === agentId);
  return { bindings: current.filter((b) => !removed.includes(b)), removed };
}
