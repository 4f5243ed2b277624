import type { AgentTool } from "../types.js";
import { createApplyPatchTool } from "./apply-patch.js";
import { createEditTool } from "./edit.js";
import { createExecTool, type ExecToolOptions } from "./exec.js";
import { createProcessTool } from "./process.js";
import { createReadTool } from "./read.js";
import { createWebFetchTool, type WebFetchToolSetup } from "./web-fetch.js";
import { createWriteTool } from "./write.js";
import { createSessionStatusTool } from "./session-status.js";
import { createSessionsHistoryTool } from "./sessions-history.js";
import { createSessionsListTool } from "./sessions-list.js";
import { createSessionsSearchTool } from "./sessions-search.js";
import { createSessionsSendTool } from "./sessions-send.js";
import { createSessionsSpawnTool } from "./sessions-spawn.js";
import { createSubagentsTool } from "./subagents.js";
import { createMemoryGetTool } from "./memory-get.js";
import { createMemorySearchTool } from "./memory-search.js";
import { createMessageTool } from "./message.js";
import { createCronTool } from "./cron.js";
import { createWebSearchTool, type WebSearchStyle } from "./web-search.js";
import { createXSearchTool } from "./x-search.js";
import { createCodeExecutionTool } from "./code-execution.js";
import { createAskUserTool } from "./ask-user.js";
import { createSessionsYieldTool } from "./sessions-yield.js";
import { createAgentsListTool } from "./agents-list.js";
import { createGatewayTool } from "./gateway.js";
import { createViewImageTool, type ViewImageMode } from "./view-image.js";
import { createHeartbeatRespondTool } from "./heartbeat-respond.js";
import { createImageGenerateTool } from "./image-generate.js";
import { createTtsTool } from "./tts.js";
import { createBrowserTool } from "./browser.js";
import { createProgressCardTool } from "./progress-card.js";
import { createGoalTools } from "./goal-tools.js";

/**
 * The seven core tools (six when web_fetch is disabled), in a fixed order: the tool list is part
 * of every model request, and a stable order keeps the provider's prompt cache warm. They read
 * their shared state from `ctx.services` (see `createToolServices`). Without `webFetch`, web_fetch
 * is offered with its defaults.
 */
export function createCoreTools(options: { exec?: ExecToolOptions; webFetch?: WebFetchToolSetup } = {}): AgentTool[] {
  const webFetch = options.webFetch ?? { enabled: true, options: {} };
  return [
    createReadTool(),
    createWriteTool(),
    createEditTool(),
    createApplyPatchTool(),
    createExecTool(options.exec),
    createProcessTool(),
    ...(webFetch.enabled ? [createWebFetchTool(webFetch.options)] : []),
  ];
}

/**
 * The session tools, offered only where a `SessionToolHost` exists (inside the gateway). Also in
 * a fixed order, after the core tools, so adding them leaves the core tools' cached prefix intact.
 */
export function createSessionTools(): AgentTool[] {
  return [
    createSessionsSpawnTool(),
    createSubagentsTool(),
    createSessionsSendTool(),
    createSessionsListTool(),
    createSessionsHistoryTool(),
    createSessionsSearchTool(),
    createSessionStatusTool(),
    createSessionsYieldTool(),
    createAgentsListTool(),
  ];
}

/** The memory tools, offered where a `MemoryToolHost` exists and memory is enabled; after the core tools. */
export function createMemoryTools(): AgentTool[] {
  return [createMemorySearchTool(), createMemoryGetTool()];
}

/**
 * Every tool a turn may be offered before the tool policy: the core tools, then web_search when a
 * provider is set up, x_search and code_execution where xAI's tools reach the turn's model
 * (offeredXaiTools), then memory, session and message tools where their services exist, cron
 * and gateway where the gateway gives them, view_image where the model can see or have described
 * images, image_generate where an image model can run, tts where a speech provider can, browser
 * where the gateway has one, get_goal, create_goal and update_goal where the session may keep a
 * goal, progress_card where the session may keep a card (see
 * offersProgressCard), then ask_user where the run may ask its user, and heartbeat_respond in a
 * heartbeat turn.
 * Turns and the `tools.*` methods list the same set.
 */
export function createAvailableTools(options: {
  exec?: ExecToolOptions;
  /** web_search, described for the provider's kind: a list of pages, or a written answer (Grok). */
  webSearch?: WebSearchStyle;
  /** x_search: an xAI key, and the turn's model is one xSearch reaches (offeredXaiTools). */
  xSearch?: boolean;
  /** code_execution: as x_search, for codeExecution. */
  codeExecution?: boolean;
  webFetch?: WebFetchToolSetup;
  memory: boolean;
  sessionTools: boolean;
  messenger: boolean;
  cron: boolean;
  /** The gateway's config is there to read (the gateway tool). */
  gateway: boolean;
  /** view_image for a model that takes images (`see`), for one that does not when an image model can describe them (`describe`), or not at all. */
  viewImage: ViewImageMode | "off";
  /** An image model can run (agents.defaults.mediaModels.image, or an OpenAI key): image_generate. */
  imageGenerate?: boolean;
  /** A speech provider can run (the tts block): tts. */
  tts?: boolean;
  /** The gateway has a managed browser (browser.enabled and a Chromium binary): the browser tool. */
  browser?: boolean;
  askUser: boolean;
  /** The turn is a heartbeat: it may report with heartbeat_respond. */
  heartbeatRespond?: boolean;
  /** The session may keep a goal (a session the gateway keeps): get_goal, create_goal, update_goal. */
  goals?: boolean;
  /** The session may keep a progress card (offersProgressCard): progress_card. */
  progressCard?: boolean;
}): AgentTool[] {
  return [
    ...createCoreTools({ exec: options.exec, webFetch: options.webFetch }),
    ...(options.webSearch ? [createWebSearchTool(options.webSearch)] : []),
    ...(options.xSearch ? [createXSearchTool()] : []),
    ...(options.codeExecution ? [createCodeExecutionTool()] : []),
    ...(options.memory ? createMemoryTools() : []),
    ...(options.sessionTools ? createSessionTools() : []),
    ...(options.messenger ? [createMessageTool()] : []),
    ...(options.cron ? [createCronTool()] : []),
    ...(options.gateway ? [createGatewayTool()] : []),
    ...(options.viewImage !== "off" ? [createViewImageTool(options.viewImage)] : []),
    ...(options.imageGenerate ? [createImageGenerateTool()] : []),
    ...(options.tts ? [createTtsTool()] : []),
    ...(options.browser ? [createBrowserTool(options.viewImage)] : []),
    ...(options.goals ? createGoalTools() : []),
    ...(options.progressCard ? [createProgressCardTool()] : []),
    ...(options.askUser ? [createAskUserTool()] : []),
    ...(options.heartbeatRespond ? [createHeartbeatRespondTool()] : []),
  ];
}

export type { MemorySearchArgs } from "./memory-search.js";
export type { MemoryGetArgs } from "./memory-get.js";
export { createApplyPatchTool, type ApplyPatchArgs } from "./apply-patch.js";
export { createEditTool, type EditArgs } from "./edit.js";
export { buildExecEnv, isSecretEnvName } from "./exec-env.js";
export {
  createExecTool,
  EXEC_DEFAULT_MAX_OUTPUT_CHARS,
  EXEC_DEFAULT_TIMEOUT_SECONDS,
  EXEC_DEFAULT_YIELD_MS,
  EXEC_MAX_TIMEOUT_SECONDS,
  type ExecArgs,
  type ExecToolOptions,
} from "./exec.js";
export { htmlToText } from "./html-to-text.js";
export { isPrivateAddress } from "./network-guard.js";
export { OutputBuffer } from "./output-buffer.js";
export { applyHunks, type HunkApplication } from "./patch-hunks.js";
export { parsePatch, PatchParseError, type PatchHunk, type PatchOperation } from "./patch-parser.js";
export { ProcessRegistry, type ProcessRegistryOptions } from "./process-registry.js";
export { killProcessGroup, ProcessSession, type ProcessSessionSummary, type ProcessStatus, type StartProcessOptions } from "./process-session.js";
export { createProcessTool, type ProcessArgs } from "./process.js";
export { createReadTool, type ReadArgs } from "./read.js";
export { stripSchemaFields } from "./strip-schema-fields.js";
export { createToolServices, getProcessRegistry } from "./tool-services.js";
export { truncateToolResult, truncateToolText } from "./truncate-output.js";
export {
  createWebFetchTool,
  neutralizeMarkers,
  UNTRUSTED_BEGIN,
  UNTRUSTED_END,
  type WebFetchArgs,
  type WebFetchToolOptions,
  type WebFetchToolSetup,
} from "./web-fetch.js";
export { createWebSearchTool, type WebSearchArgs, type WebSearchStyle, webSearchStyle } from "./web-search.js";
export { heartbeatNotification } from "./heartbeat-respond.js";
export { createImageGenerateTool } from "./image-generate.js";
export { createTtsTool, type TtsArgs } from "./tts.js";
export { createBrowserTool } from "./browser.js";
export { BrowserService } from "./browser/browser-service.js";
export { browserSetup, type BrowserSetup, type BrowserSettings } from "./browser/browser-setup.js";
export { createProgressCardTool } from "./progress-card.js";
export { createCreateGoalTool, createGetGoalTool, createGoalTools, createUpdateGoalTool } from "./goal-tools.js";
export { cachedImageGenerationSetup, imageGenerationSetup, type ImageGenerationSetup } from "./image-generate/image-generation-setup.js";
export { createXSearchTool, type XSearchArgs } from "./x-search.js";
export { createCodeExecutionTool, type CodeExecutionArgs } from "./code-execution.js";
export { cachedXaiToolsSetup, offeredXaiTools, xaiToolsSetup, type XaiToolsSetup } from "./xai/xai-tools-setup.js";
export { cachedWebSearchSetup, webSearchSetup, WEB_SEARCH_DEFAULTS, type WebSearchSetup } from "./web-search/web-search-setup.js";
export { resolveWorkspacePath, type WorkspacePathResolution } from "./workspace-path.js";
export { createWriteTool, type WriteArgs } from "./write.js";
export type { ExecApprovalDecision, ExecApprovalGate, SessionToolCaller, SessionToolHost } from "../types.js";
export type {
  SessionsHistoryArgs,
  SessionsListArgs,
  SessionsSearchArgs,
  SessionsSendArgs,
  SessionsSpawnArgs,
  SessionStatusArgs,
  SessionsYieldArgs,
  SubagentsArgs,
} from "./session-tool-params.js";
