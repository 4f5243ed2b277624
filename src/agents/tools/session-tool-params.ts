import { Type, type Static } from "@sinclair/typebox";
import { MAX_QUERY_CHARS } from "../../sessions/search/search-query.js";

/**
 * The parameter schemas of the session tools and the argument types they give, in one file
 * that imports nothing of the runtime: the tools and `SessionToolHost` both read them from here.
 */

export const SessionsSpawnAttachment = Type.Object({
  name: Type.String(),
  content: Type.String(),
  encoding: Type.Optional(Type.Union([Type.Literal("utf8"), Type.Literal("base64")])),
  mimeType: Type.Optional(Type.String()),
});

export const SessionsSpawnParameters = Type.Object({
  task: Type.String({ description: "Self-contained unless context is fork: an isolated sub-agent does not see this conversation." }),
  label: Type.Optional(Type.String()),
  agentId: Type.Optional(Type.String({ description: "Another allowed agent; default: yours." })),
  model: Type.Optional(Type.String({ description: "provider/model" })),
  thinking: Type.Optional(Type.String()),
  runTimeoutSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
  thread: Type.Optional(Type.Boolean({ description: "Open a thread for it in this chat (channels with threads): its replies go there and messages there reach it." })),
  mode: Type.Optional(Type.Union([Type.Literal("run"), Type.Literal("session")], { description: "session: stays for later steer messages." })),
  cleanup: Type.Optional(Type.Union([Type.Literal("delete"), Type.Literal("keep")])),
  context: Type.Optional(
    Type.Union([Type.Literal("isolated"), Type.Literal("fork")], {
      description: "fork: it starts with a copy of this conversation (default for thread spawns); isolated: only the task.",
    }),
  ),
  sandbox: Type.Optional(Type.Union([Type.Literal("inherit"), Type.Literal("require")])),
  expectsCompletionMessage: Type.Optional(Type.Boolean({ description: "false: an empty result is not reported." })),
  attachments: Type.Optional(Type.Array(SessionsSpawnAttachment, { description: "Files for its workspace (≤ 50, 1 MB each)." })),
  attachMountPath: Type.Optional(Type.String()),
  runtime: Type.Optional(Type.Union([Type.Literal("subagent"), Type.Literal("acp")], { description: "acp: an external coding agent (Claude Code, Codex …) named by agentId." })),
  cwd: Type.Optional(Type.String({ description: "acp only: its working directory; relative paths start at your workspace (default: the workspace)." })),
  resumeSessionId: Type.Optional(Type.String({ description: "acp only: continue this agent-side session (session/load)." })),
  streamTo: Type.Optional(Type.Literal("parent", { description: "acp only: relay its progress into this chat while it works." })),
});
export type SessionsSpawnArgs = Static<typeof SessionsSpawnParameters>;

export const SubagentsParameters = Type.Object({
  action: Type.Union([Type.Literal("list"), Type.Literal("kill"), Type.Literal("steer"), Type.Literal("log"), Type.Literal("info")]),
  target: Type.Optional(Type.String({ description: '#n from list, label, runId prefix or session key; kill also takes "all".' })),
  message: Type.Optional(Type.String({ description: "steer: new instructions (≤ 4000 chars)." })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: "log: messages (default 20)." })),
});
export type SubagentsArgs = Static<typeof SubagentsParameters>;

export const SessionsSendParameters = Type.Object({
  sessionKey: Type.Optional(Type.String()),
  label: Type.Optional(Type.String()),
  agentId: Type.Optional(Type.String({ description: "That agent's main session." })),
  message: Type.String(),
  timeoutSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600, description: "0: return at once, the reply comes later as a message; > 0: wait for it." })),
});
export type SessionsSendArgs = Static<typeof SessionsSendParameters>;

export const SessionsListParameters = Type.Object({
  kinds: Type.Optional(Type.Array(Type.Union([Type.Literal("main"), Type.Literal("group"), Type.Literal("subagent"), Type.Literal("other")]))),
  label: Type.Optional(Type.String()),
  agentId: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ description: "In key or label." })),
  activeMinutes: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  messageLimit: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, description: "Last N messages of each." })),
});
export type SessionsListArgs = Static<typeof SessionsListParameters>;

export const SessionsHistoryParameters = Type.Object({
  sessionKey: Type.String(),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, description: "Page back with nextOffset." })),
  includeTools: Type.Optional(Type.Boolean()),
});
export type SessionsHistoryArgs = Static<typeof SessionsHistoryParameters>;

/** sessions_search: hits per call by default and at most (as OpenClaw). */
export const SESSIONS_SEARCH_DEFAULT_LIMIT = 10;
export const SESSIONS_SEARCH_MAX_LIMIT = 25;

export const SessionsSearchParameters = Type.Object({
  query: Type.String({ maxLength: MAX_QUERY_CHARS, description: 'Words that must all occur in one message, in any order; "quoted words" as a phrase.' }),
  sessionKey: Type.Optional(Type.String({ description: "Search only this session." })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SESSIONS_SEARCH_MAX_LIMIT, description: `Hits (default ${SESSIONS_SEARCH_DEFAULT_LIMIT}).` })),
});
export type SessionsSearchArgs = Static<typeof SessionsSearchParameters>;

export const SessionStatusParameters = Type.Object({
  sessionKey: Type.Optional(Type.String({ description: "Default: current." })),
});
export type SessionStatusArgs = Static<typeof SessionStatusParameters>;

export const SessionsYieldParameters = Type.Object({
  message: Type.Optional(Type.String({ description: "A note for yourself when the results arrive (stays in this session, not shown to the user)." })),
});
export type SessionsYieldArgs = Static<typeof SessionsYieldParameters>;

export const AgentsListParameters = Type.Object({});
