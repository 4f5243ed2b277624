export type {
  RunTracer,
  RunTraceHandle,
  TraceStart,
  TraceEnd,
  TraceRecord,
  TraceSummary,
  TraceSource,
  TraceOutcome,
  ExternalTraceEvent,
  ModelCallTrace,
  ToolCallTrace,
} from "./types.js";
export { TraceRecorder, type TraceRecorderDeps } from "./trace-recorder.js";
export { MeaningSearchRefusal, type MeaningSearchQuery, type MeaningSearchResult, meaningEmbedder, nearestTraces } from "./meaning/search-meaning.js";
export { TraceStore, tracesDbPath, type TraceQuery, type TraceSearchHit, type TraceSearchQuery } from "./trace-store.js";
export { traceSettings, type TraceSettings } from "./settings.js";
export { renderTraceTree, renderTraceList, renderTraceSearch } from "./render-tree.js";
export { renderReviewQueue } from "./review/render-review.js";
export { reactionFeedbackEnabled, reviewSettings } from "./review/review-settings.js";
export type { FeedbackRating, RegradeScope, ReviewItem, ReviewLabel, ReviewStatus } from "./review/review-store.js";
export { RegradeRefusal } from "./review/review-store.js";
export type { Judgement } from "./review/review-store.js";
export type { JudgeAnswer, JudgeCall, JudgeModel } from "./review/review-judge.js";
export { renderCalibration } from "./review/render-calibration.js";
export { calibrate, type Calibration } from "./review/calibration.js";
