import { randomUUID } from "node:crypto";
import * as acp from "@agentclientprotocol/sdk";
import { createApprovalRelay } from "./approval-relay.js";
import { createWindowBudget } from "./creation-budget.js";
import { DISCONNECT_GRACE_MS, watchGatewayConnection } from "./disconnect-grace.js";
import { failed, invalidInput } from "./errors.js";
import { assertPromptSize, promptToText, withCwdPrefix } from "./prompt-text.js";
import { PromptRuns } from "./prompt-runs.js";
import { provenanceParams } from "./provenance.js";
import { transcriptUpdates } from "./replay.js";
import { openGatewaySession, parseSessionMeta, type SessionMeta } from "./session-opener.js";
import { assertAbsoluteCwd, decodeListCursor, encodeListCursor, pageSizeFrom } from "./session-list.js";
import { BridgeSessions, sessionKeyForId, type BridgeSession } from "./sessions.js";
import type { AgentEventPayload, BridgeGateway, BridgeOptions, ChatEventPayload, ChatSendAck, ListedSessionRow } from "./types.js";

/** Session creations (new, load, resume) allowed per 10 s window. */
export const SESSION_CREATE_LIMIT = { maxRequests: 120, windowMs: 10_000 };
/** Messages replayed by `session/load` (the gateway's chat.history maximum). */
const REPLAY_LIMIT = 1000;
/** How long a cancel waits for the gateway run to end before the session takes prompts again. */
const ABORT_WAIT_MS = 10_000;

/**
 * `openclaw acp`: the ACP agent an IDE talks to, backed by a gateway session. Prompts become
 * `chat.send`, the run's `chat` / `agent` events become `session/update`s, cancel becomes
 * `chat.abort`, and exec approvals of a session with a prompt in flight are asked in the IDE.
 */
export function createBridgeAgent(gateway: BridgeGateway, opts: BridgeOptions, version: string) {
  const log = opts.log ?? (() => {});
  const sessions = new BridgeSessions();
  const budget = createWindowBudget(SESSION_CREATE_LIMIT.maxRequests, SESSION_CREATE_LIMIT.windowMs);
  let ide: acp.AgentContext | undefined;
  const runs = new PromptRuns((notification) => ide!.notify(acp.methods.client.session.update, notification), log);
  const approvals = createApprovalRelay(gateway, runs, (request) => ide!.request(acp.methods.client.session.requestPermission, request), log);
  watchGatewayConnection(gateway, runs, DISCONNECT_GRACE_MS, log);

  gateway.onEvent((event, payload) => {
    if (event === "chat") runs.onChat(payload as ChatEventPayload);
    else if (event === "agent") runs.onAgent(payload as AgentEventPayload);
    else if (event === "exec.approval.requested") void approvals.onRequested(payload);
  });

  const takeCreation = (method: string) => {
    const verdict = budget.take();
    if (!verdict.allowed)
      throw invalidInput(
        `${method}: too many sessions opened (limit ${SESSION_CREATE_LIMIT.maxRequests} per ${SESSION_CREATE_LIMIT.windowMs / 1000} s); retry in ${Math.ceil(verdict.retryAfterMs / 1000)} s`,
      );
  };
  const refuseMcpServers = (servers: unknown[] | undefined) => {
    if (servers && servers.length > 0) {
      throw invalidInput("openclaw acp does not take per-session MCP servers (mcpServers must be empty): configure tools on the OpenClaw gateway instead");
    }
  };
  const open = async (sessionId: string, cwd: string, meta: SessionMeta, fallbackKey: string, historyLimit: number) => {
    const opened = await openGatewaySession(gateway, opts, meta, fallbackKey, { limit: historyLimit });
    const session: BridgeSession = { sessionId, sessionKey: opened.sessionKey, canonicalKey: opened.canonicalKey, cwd };
    sessions.set(session);
    log(`session ${sessionId} -> ${opened.canonicalKey}`);
    return { session, opened };
  };
  /**
   * Ends the session's prompt in flight (its response says cancelled) and aborts the gateway
   * run. A prompt sent right after waits until that run has ended: sent earlier, the gateway
   * would steer it into the run being aborted.
   */
  const cancelActive = async (sessionId: string, waitForEnd = true) => {
    const run = runs.activeFor(sessionId);
    if (!run) return;
    run.settle({ stopReason: "cancelled" });
    const ending = (async () => {
      try {
        await gateway.call("chat.abort", { sessionKey: run.session.sessionKey, runId: run.runId });
        if (waitForEnd) await gateway.call("agent.wait", { runId: run.runId, timeoutMs: ABORT_WAIT_MS }, { timeoutMs: ABORT_WAIT_MS + 5_000 });
      } catch (err) {
        log(`cancelling run ${run.runId}: ${(err as Error).message}`);
      }
    })();
    run.session.ending = ending;
    await ending;
  };
  const guarded =
    <P, R>(handler: (params: P) => Promise<R>) =>
    async ({ params }: { params: P }) => {
      try {
        return await handler(params);
      } catch (err) {
        throw failed(err);
      }
    };

  const app = acp
    .agent({ name: "openclaw-acp" })
    .onConnect((connection) => {
      ide = connection.client;
    })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
        sessionCapabilities: { list: {}, resume: {}, close: {} },
      },
      agentInfo: { name: "openclaw", title: "OpenClaw", version },
      authMethods: [],
    }))
    .onRequest(
      acp.methods.agent.session.new,
      guarded(async (params: acp.NewSessionRequest) => {
        refuseMcpServers(params.mcpServers);
        assertAbsoluteCwd(params.cwd, "session/new");
        const meta = parseSessionMeta(params._meta);
        takeCreation("session/new");
        const sessionId = randomUUID();
        await open(sessionId, params.cwd, meta, sessionKeyForId(sessionId), 1);
        return { sessionId };
      }),
    )
    .onRequest(
      acp.methods.agent.session.load,
      guarded(async (params: acp.LoadSessionRequest) => {
        refuseMcpServers(params.mcpServers);
        assertAbsoluteCwd(params.cwd, "session/load");
        const meta = parseSessionMeta(params._meta);
        if (!sessions.get(params.sessionId)) takeCreation("session/load");
        await cancelActive(params.sessionId);
        const { opened } = await open(params.sessionId, params.cwd, meta, sessionKeyForId(params.sessionId), REPLAY_LIMIT);
        for (const update of transcriptUpdates(opened.messages)) await ide!.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
        return {};
      }),
    )
    .onRequest(
      acp.methods.agent.session.resume,
      guarded(async (params: acp.ResumeSessionRequest) => {
        refuseMcpServers(params.mcpServers);
        assertAbsoluteCwd(params.cwd, "session/resume");
        const meta = parseSessionMeta(params._meta);
        const existing = sessions.get(params.sessionId);
        if (!existing) takeCreation("session/resume");
        await open(params.sessionId, params.cwd, meta, existing?.sessionKey ?? sessionKeyForId(params.sessionId), 1);
        return {};
      }),
    )
    .onRequest(
      acp.methods.agent.session.close,
      guarded(async (params: acp.CloseSessionRequest) => {
        sessions.mustGet(params.sessionId);
        await cancelActive(params.sessionId);
        sessions.delete(params.sessionId);
        return {};
      }),
    )
    .onRequest(
      acp.methods.agent.session.list,
      guarded(async (params: acp.ListSessionsRequest) => {
        const cwd = params.cwd ?? undefined;
        if (cwd) assertAbsoluteCwd(cwd, "session/list");
        const cursor = decodeListCursor(params.cursor, cwd);
        const pageSize = pageSizeFrom(params._meta);
        const end = cursor.offset + pageSize;
        const listed = await gateway.call<{ sessions: ListedSessionRow[] }>("sessions.list", { limit: Math.min(end + 1, 10_000) });
        const rows = listed.sessions
          .map((row) => ({
            sessionId: row.key,
            cwd: sessions.cwdOf(row.key) ?? process.cwd(),
            title: row.label ?? row.displayName ?? row.key,
            updatedAt: typeof row.updatedAt === "number" ? new Date(row.updatedAt).toISOString() : null,
          }))
          .filter((row) => !cwd || row.cwd === cwd);
        return {
          sessions: rows.slice(cursor.offset, end),
          nextCursor: rows.length > end ? encodeListCursor({ offset: end, ...(cwd ? { cwd } : {}) }) : null,
        };
      }),
    )
    .onRequest(
      acp.methods.agent.session.prompt,
      guarded(async (params: acp.PromptRequest) => {
        const session = sessions.mustGet(params.sessionId);
        const text = promptToText(params.prompt);
        const message = opts.prefixCwd === false ? text : withCwdPrefix(text, session.cwd);
        assertPromptSize(message);
        // A new prompt replaces the one in flight, as in a chat where the user interrupts.
        await cancelActive(session.sessionId);
        await session.ending;
        const runId = randomUUID();
        const done = runs.start(session, runId);
        const run = runs.get(runId)!;
        try {
          const ack = await gateway.call<ChatSendAck>("chat.send", {
            sessionKey: session.sessionKey,
            message,
            idempotencyKey: runId,
            ...provenanceParams(opts.provenance, session),
          });
          if (ack.status === "started") run.steered = ack.queued === "steered";
          else {
            // A chat command the gateway answered itself (/new, /stop, /subagents …): no run follows.
            if (typeof ack.reply === "string") runs.sendText(run, ack.reply);
            run.settle({ stopReason: "end_turn" });
          }
        } catch (err) {
          // A dropped connection is the disconnect watcher's to resolve; anything else fails the prompt.
          if (!(err as { closeCode?: number }).closeCode) run.settle(err as Error);
        }
        return await done;
      }),
    )
    .onNotification(acp.methods.agent.session.cancel, async ({ params }) => {
      await cancelActive(params.sessionId);
    })
    .onNotification("*", ({ method }) => {
      log(`ignored notification ${method}`);
    });

  return {
    app,
    /** The IDE went away: its prompts in flight are cancelled on the gateway too. */
    async shutdown(): Promise<void> {
      await Promise.all(runs.all().map((run) => cancelActive(run.session.sessionId, false)));
    },
  };
}
