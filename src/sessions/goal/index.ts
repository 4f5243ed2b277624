export {
  accountedGoal,
  createdGoal,
  goalAfterTurn,
  goalWithObjective,
  goalWithStatus,
  GoalTransitionError,
  MODEL_GOAL_STATUSES,
  SESSION_GOAL_STATUSES,
  type ModelGoalStatus,
  type SessionGoal,
  type SessionGoalStatus,
} from "./session-goal.js";
export { checkGoalNote, checkGoalObjective, checkGoalTokenBudget, GOAL_LIMITS, type GoalTextCheck } from "./goal-input.js";
export {
  GOAL_OPERATION_RULES,
  type GoalOperation,
  type GoalOperationAdmission,
  type GoalOperationReceipt,
  type GoalOperationResult,
} from "./goal-operations.js";
export { GoalRefusal, GoalStore, type GoalTarget } from "./goal-store.js";
export { activeGoalContextLine } from "./active-goal-context.js";
export { formatGoalStatus } from "./goal-status-text.js";
