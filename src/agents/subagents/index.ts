export { SubagentService, type SpawnAccepted, type SteerOutcome, type SubagentServiceDeps } from "./subagent-service.js";
export { runSubagentsCommand, SUBAGENTS_COMMAND_HELP, type SubagentsCommandDeps } from "./subagents-command.js";
export { resolveFocusTarget, type FocusTarget } from "./focus-target.js";
export { subagentMaxConcurrent } from "./subagent-config.js";
export type { SubagentThread, SubagentThreadPort } from "./thread-port.js";
export type { SpawnRefusal } from "./spawn-checks.js";
export type { SubagentRunRecord, SubagentOutcome, SubagentEndedReason, TaskCompletionEvent } from "./types.js";
export type { AcpChildPort, AcpChildPrepareInput, AcpChildPrepared, AcpChildRun, AcpChildRunResult } from "./acp-child-port.js";
