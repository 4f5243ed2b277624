import { randomUUID } from "node:crypto";
import type { SessionEntry, SessionStore } from "../store/index.js";
import {
  GOAL_OPERATION_RULES,
  liveReceipts,
  operationFingerprint,
  operationTimeProblem,
  type GoalOperation,
  type GoalOperationAdmission,
  type GoalOperationResult,
} from "./goal-operations.js";
import { accountedGoal, createdGoal, goalWithObjective, goalWithStatus, GoalTransitionError, type SessionGoal, type SessionGoalStatus } from "./session-goal.js";

const OPERATION_STATUS = { pause: "paused", resume: "active", complete: "complete", block: "blocked" } as const;

/** The goal an operation leaves (null: cleared). */
function operationGoal(entry: SessionEntry, op: GoalOperation, now: number): SessionGoal | null {
  const total = entry.totalTokens ?? 0;
  if (op.action === "clear") return null;
  if (op.action === "edit") return goalWithObjective(entry.goal, op.objective, total, now);
  return goalWithStatus(entry.goal, OPERATION_STATUS[op.action], op.note || undefined, total, now);
}

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
    return this.change(target, (entry, now) => createdGoal(entry.goal, fields, entry.totalTokens ?? 0, now, id), false);
  }

  /** Moves the goal to `status` (pause, resume as active, block, complete) with an optional note. */
  setStatus(target: GoalTarget, status: SessionGoalStatus, note?: string): Promise<SessionGoal> {
    return this.change(target, (entry, now) => goalWithStatus(entry.goal, status, note || undefined, entry.totalTokens ?? 0, now));
  }

  /** Rewords the objective. */
  edit(target: GoalTarget, objective: string): Promise<SessionGoal> {
    return this.change(target, (entry, now) => goalWithObjective(entry.goal, objective, entry.totalTokens ?? 0, now));
  }

  /** Removes the goal; false when there was none (nothing is written). */
  async clear(target: GoalTarget): Promise<boolean> {
    const entry = this.entryFor(target, false);
    if (!entry.goal) return false;
    await this.change(target, () => null);
    return true;
  }

  /**
   * Applies a client's goal control once: a retry of the same operation answers what the first
   * did (`replayed: true`) without changing anything; the same id with another request, an
   * expired or future-dated one, a session reset since (`sessionId`), a goal other than the one
   * named, or a session at its receipt limit are refused. The receipt is stored with the change.
   * With `starts`, the operation starts a turn: `starts.admit` may refuse it before anything is
   * written, and the receipt says `started` with the turn's `runId`.
   */
  async operate(target: Omit<GoalTarget, "goalId">, op: GoalOperation, starts?: GoalOperationAdmission): Promise<GoalOperationResult> {
    const now = this.now();
    const timeProblem = operationTimeProblem(op.issuedAtMs, now);
    if (timeProblem) throw new GoalRefusal(timeProblem);
    const entry = this.entryFor(target, false);
    if (op.sessionId !== undefined && entry.sessionId !== op.sessionId) throw new GoalRefusal("session changed; refresh before changing its goal");
    const receipts = liveReceipts(entry.goalOperations, now);
    const fingerprint = operationFingerprint(target.sessionKey, op);
    const kept = receipts[op.operationId];
    if (kept && kept.fingerprint !== fingerprint) throw new GoalRefusal("goal operation id was already used for a different request");
    if (kept) return { ...kept.result, replayed: true };
    if (Object.keys(receipts).length >= GOAL_OPERATION_RULES.maxReceipts)
      throw new GoalRefusal("too many recent goal operations; wait for older ones to expire before trying again");
    const current = this.entryFor({ ...target, goalId: op.goalId }, true);
    const goal = operationGoal(current, op, now);
    starts?.admit();
    const result: GoalOperationResult = {
      operationId: op.operationId,
      action: op.action,
      sessionId: entry.sessionId,
      goalId: op.goalId,
      status: starts ? "started" : goal ? "updated" : "cleared",
      ...(goal ? { goal } : {}),
      ...(starts ? { runId: starts.runId } : {}),
    };
    receipts[op.operationId] = { fingerprint, expiresAt: op.issuedAtMs + GOAL_OPERATION_RULES.validMs, result };
    this.deps.sessions.patch(target.sessionKey, { goal, goalOperations: receipts }, { durable: true });
    await this.deps.sessions.whenDurable(target.sessionKey);
    this.deps.onChanged(target.sessionKey, goal);
    return result;
  }

  private async change<T extends SessionGoal | null>(target: GoalTarget, next: (entry: SessionEntry, now: number) => T, needsGoal = true): Promise<T> {
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
