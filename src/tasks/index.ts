export { TaskLedger, type TaskLedgerOptions } from "./task-ledger.js";
export { LOST_TASK_RETENTION_MS, MAX_ENDED_TASKS, TASK_RETENTION_MS, TaskStore, type TaskQuery } from "./task-store.js";
export * from "./types.js";
export { renderTaskBoard, TASK_BOARD_MAX } from "./task-board.js";
export { taskLine } from "./task-text.js";
