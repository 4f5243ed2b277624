export {
  clearedOnReset,
  nextProgressCard,
  progressCardCounts,
  visibleProgressCard,
  PROGRESS_CARD_STEP_STATUSES,
  type ProgressCard,
  type ProgressCardContent,
  type ProgressCardStep,
  type ProgressCardStepStatus,
  type StoredProgressCard,
} from "./progress-card.js";
export { checkProgressCardInput, PROGRESS_CARD_LIMITS, type ProgressCardInputCheck } from "./progress-card-input.js";
export { stripInvisibleText } from "./invisible-text.js";
export { ProgressCardRefusal, ProgressCardStore } from "./progress-card-store.js";
