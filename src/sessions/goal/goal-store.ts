import { randomUUID } from "node:crypto";
import type { SessionEntry, SessionStore } from "../store/index.js";
import { accountedGoal, createdGoal, goalWithObjective, goalWithStatus, GoalTransitionError, type SessionGoal, type SessionGoalStatus } from "./session-goal.js";

/** A goal write that has nowhere to go: the session is missing, not kept, belongs to another agent, or its goal was replaced. */
export class GoalRefusal extends Error {}

/** Who a change is for: the session, the agent that must own it, and optionally the goal it was meant for. */
export interface GoalTarget {
  sessionKey: string;
  agentId: string;
  /** A control for a goal shown earlier: refused when the session's goal is now another (or none). */
  goalId?: string;
}

/**
 * The sessions' goals, kept on their `sessions.json` entries. A write is on disk before it
 * resolves (the index is written at once and fsynced), so an answered change survives a kill -9;
 * reads come from memory and count the session's tokens without writing. `onChanged` hears every
 * stored change. Rule breaks throw GoalTransitionError; writes with nowhere to go, GoalRefusal.
 */
export class GoalStore {
  constructor(
    private readonly deps: {
      sessions: SessionStore;
      onChanged: (sessionKey: string, goal: SessionGoal | null) => void;
      now?: () => number;
      newId?: () => string;
    },
  ) {}

  /** The session's goal with its tokens counted up to now; null when it has none. */
  read(sessionKey: string): SessionGoal | null {
    const entry = this.deps.sessions.peek(sessionKey);
    return entry?.goal ? accountedGoal(entry.goal, entry.totalTokens ?? 0, this.now()) : null;
  }

  /** Whether a goal can be kept for the session: a one-off session is never kept, so it has none. */
  keeps(sessionKey: string): boolean {
    return !this.deps.sessions.isOneOff(sessionKey);
  }

  /** Starts the session's goal; fails while it has one. */
  create(target: GoalTarget, fields: { objective: string; tokenBudget?: number }): Promise<SessionGoal> {
    const id = (this.deps.newId ?? randomUUID)();
    return this.change(target, (entry, now) => createdGoal(entry.goal, fields, entry.totalTokens ?? 0, now, id), false) as Promise<SessionGoal>;
  }

  /** Moves the goal to `status` (pause, resume as active, block, complete) with an optional note. */
  setStatus(target: GoalTarget, status: SessionGoalStatus, note?: string): Promise<SessionGoal> {
    return this.change(target, (entry, now) => goalWithStatus(entry.goal, status, note || undefined, entry.totalTokens ?? 0, now)) as Promise<SessionGoal>;
  }

  /** Rewords the objective. */
  edit(target: GoalTarget, objective: string): Promise<SessionGoal> {
    return this.change(target, (entry, now) => goalWithObjective(entry.goal, objective, entry.totalTokens ?? 0, now)) as Promise<SessionGoal>;
  }

  /** Removes the goal; false when there was none (nothing is written). */
  async clear(target: GoalTarget): Promise<boolean> {
    const entry = this.entryFor(target, false);
    if (!entry.goal) return false;
    await this.change(target, () => null);
    return true;
  }

  private async change(target: GoalTarget, next: (entry: SessionEntry, now: number) => SessionGoal | null, needsGoal = true): Promise<SessionGoal | null> {
    const { sessions } = this.deps;
    const entry = this.entryFor(target, needsGoal);
    const goal = next(entry, this.now());
    sessions.patch(target.sessionKey, { goal }, { durable: true });
    await sessions.whenDurable(target.sessionKey);
    this.deps.onChanged(target.sessionKey, goal);
    return goal;
  }

  private entryFor(target: GoalTarget, needsGoal: boolean): SessionEntry {
    const entry = this.deps.sessions.peek(target.sessionKey);
    if (!entry) throw new GoalRefusal(`session not found: ${target.sessionKey}`);
    if (entry.agentId !== target.agentId) throw new GoalRefusal(`session ${target.sessionKey} belongs to agent "${entry.agentId}", not "${target.agentId}"`);
    if (!this.keeps(target.sessionKey)) throw new GoalRefusal("this session is a one-off request that is not kept, so it has no goal");
    if (target.goalId !== undefined && entry.goal?.id !== target.goalId) throw new GoalRefusal("goal changed or was cleared; refresh before trying again");
    if (needsGoal && !entry.goal && target.goalId === undefined) throw new GoalTransitionError("goal not found");
    return entry;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}
