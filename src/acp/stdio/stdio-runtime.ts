import type { CreateElicitationRequest, SessionUpdate } from "@agentclientprotocol/sdk";
import type { Logger } from "../../infra/logger.js";
import type { AcpSettings } from "../config.js";
import { EventQueue } from "../runtime/event-queue.js";
import {
  AcpRuntimeError,
  type AcpRuntime,
  type AcpRuntimeCapabilities,
  type AcpRuntimeDoctorCheck,
  type AcpRuntimeDoctorReport,
  type AcpRuntimeEnsureInput,
  type AcpRuntimeEvent,
  type AcpRuntimeHandle,
  type AcpRuntimeStatus,
  type AcpRuntimeTurnInput,
} from "../runtime/types.js";
import { AgentConnection } from "./agent-connection.js";
import { answerElicitation, type InputAsker } from "./elicitation.js";
import type { PermissionAsker } from "./permissions.js";
import { mapSessionUpdate } from "./update-mapper.js";

/** How long an agent gets to stop after session/cancel before its process group is killed. */
export const CANCEL_GRACE_MS = 3_000;
const DOCTOR_TIMEOUT_MS = 15_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface StdioRuntimeDeps {
  settings: () => AcpSettings;
  logger: Logger;
  /** The environment agents inherit (scrubbed before use); default the gateway's own. */
  env?: NodeJS.ProcessEnv;
  permissions?: PermissionAsker;
  /** Asks a person an agent's form (`elicitation/create`); absent: agents are not offered forms. */
  input?: InputAsker;
  /** An agent process was spawned (pid), or ended, was closed or failed to start (undefined), for a session: the control plane records it. */
  onProcess?: (sessionKey: string, pid: number | undefined) => void;
}

interface Turn {
  queue: EventQueue<AcpRuntimeEvent>;
  permissionFailure?: string;
  /** Aborted when the turn is over: a form the agent asked during it is no longer waited for. */
  ended: AbortController;
}

interface LiveSession {
  handle: AcpRuntimeHandle;
  agent: AgentConnection;
  turn?: Turn;
  title?: string;
  lastUpdateAt?: number;
}

/**
 * The stdio backend: one agent process per session, spoken to over ACP. A turn is a
 * `session/prompt` whose `session/update`s stream out as events; it ends with exactly one
 * `done` or `error` — also when the agent dies, hangs (timeout → session/cancel → the process
 * group is killed) or a permission cannot be asked.
 */
export class StdioAcpRuntime implements AcpRuntime {
  private readonly sessions = new Map<string, LiveSession>();

  constructor(private readonly deps: StdioRuntimeDeps) {}

  async ensureSession(input: AcpRuntimeEnsureInput): Promise<AcpRuntimeHandle> {
    const existing = this.sessions.get(input.sessionKey);
    if (existing && !existing.agent.process.hasExited) return existing.handle;
    const settings = this.deps.settings();
    const command = settings.agents[input.agent];
    if (!command) throw new AcpRuntimeError("ACP_AGENT_UNKNOWN", `ACP agent \`${input.agent}\` is not configured.`);
    let live: LiveSession | undefined;
    let spawned = false;
    const startFailed = (err: unknown) => {
      if (spawned) this.deps.onProcess?.(input.sessionKey, undefined);
      throw err;
    };
    const asker = this.deps.input;
    const agent = await AgentConnection.start({
      agentId: input.agent,
      command,
      cwd: input.cwd,
      baseEnv: this.deps.env ?? process.env,
      logger: this.deps.logger,
      timeoutMs: settings.timeoutSeconds * 1000,
      permissions: () => ({ mode: this.deps.settings().permissionMode, nonInteractive: this.deps.settings().nonInteractivePermissions }),
      ask: (title, kind) =>
        this.deps.permissions
          ? this.deps.permissions.ask({ sessionKey: input.sessionKey, agent: input.agent, cwd: input.cwd, title, ...(kind ? { kind } : {}) })
          : Promise.resolve("unavailable"),
      ...(asker ? { elicit: (request: CreateElicitationRequest, signal: AbortSignal) => this.elicit(request, signal, input, live?.turn, asker) } : {}),
      onUpdate: (update) => live && this.onUpdate(live, update),
      onPermissionFailure: (message) => {
        if (!live?.turn) return;
        live.turn.permissionFailure ??= message;
        live.agent.cancel();
      },
      onSpawn: (pid) => {
        spawned = true;
        this.deps.onProcess?.(input.sessionKey, pid);
      },
    }).catch(startFailed);
    try {
      const backendSessionId = input.resumeSessionId ? (await agent.resumeSession(input.resumeSessionId), input.resumeSessionId) : await agent.newSession();
      live = {
        agent,
        handle: { sessionKey: input.sessionKey, backend: "stdio", agent: input.agent, cwd: input.cwd, backendSessionId, ...(agent.process.pid ? { pid: agent.process.pid } : {}) },
      };
    } catch (err) {
      await agent.dispose();
      return startFailed(err);
    }
    this.sessions.set(input.sessionKey, live);
    const ended = live;
    void agent.process.exited.then((exit) => {
      if (this.sessions.get(input.sessionKey) !== ended) return;
      this.deps.logger.info({ agent: input.agent, sessionKey: input.sessionKey, exit }, "acp agent process ended");
      this.deps.onProcess?.(input.sessionKey, undefined);
    });
    return live.handle;
  }

  /** An agent's form, asked until the agent withdraws it, leaves, or the turn it came in ends. */
  private elicit(request: CreateElicitationRequest, withdrawn: AbortSignal, session: AcpRuntimeEnsureInput, turn: Turn | undefined, asker: InputAsker) {
    const signal = turn ? AbortSignal.any([withdrawn, turn.ended.signal]) : withdrawn;
    return answerElicitation(request, { sessionKey: session.sessionKey, agent: session.agent, signal }, asker);
  }

  runTurn(input: AcpRuntimeTurnInput): AsyncIterable<AcpRuntimeEvent> {
    const live = this.sessions.get(input.handle.sessionKey);
    const queue = new EventQueue<AcpRuntimeEvent>();
    if (!live || live.agent.process.hasExited) {
      queue.push({ type: "error", code: "ACP_SESSION_STALE", message: `ACP session ${input.handle.sessionKey} has no running agent (it ended or the gateway restarted).` });
      queue.end();
      return queue;
    }
    if (live.turn) {
      queue.push({ type: "error", code: "ACP_BUSY", message: `ACP session ${input.handle.sessionKey} is already running a turn.`, retryable: true });
      queue.end();
      return queue;
    }
    const turn: Turn = { queue, ended: new AbortController() };
    live.turn = turn;
    void this.drive(live, turn, input).finally(() => {
      if (live.turn === turn) live.turn = undefined;
      turn.ended.abort();
      queue.end();
    });
    return queue;
  }

  private async drive(live: LiveSession, turn: Turn, input: AcpRuntimeTurnInput): Promise<void> {
    const { agent, handle } = live;
    const name = `ACP agent \`${handle.agent}\``;
    // The turn's own limit; acpx timeoutSeconds bounds start-up only, as in OpenClaw.
    const timeoutMs = (input.timeout?.seconds ?? 0) * 1000;
    const prompt = agent.connection.agent.request("session/prompt", { sessionId: handle.backendSessionId, prompt: [{ type: "text", text: input.text }] });
    prompt.catch(() => {});
    type Ending =
      | { kind: "answered"; stopReason: string; usage?: unknown }
      | { kind: "refused"; message: string }
      | { kind: "exited"; message: string }
      | { kind: "timeout" }
      | { kind: "aborted" };
    const answered = prompt.then(
      (res): Ending => ({ kind: "answered", stopReason: res.stopReason, usage: (res as { usage?: unknown }).usage }),
      (err: Error): Ending => ({ kind: "refused", message: err.message }),
    );
    const exited = agent.process.exited.then((exit): Ending => ({ kind: "exited", message: `${name} ${agent.process.describeExit(exit)} in the middle of a turn.` }));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<Ending>((resolve) => {
      // No limit at 0, nor past the longest wait one timer holds (about 24.8 days).
      if (timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS) timer = setTimeout(() => resolve({ kind: "timeout" }), timeoutMs);
    });
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<Ending>((resolve) => {
      if (input.signal?.aborted) return resolve({ kind: "aborted" });
      onAbort = () => resolve({ kind: "aborted" });
      input.signal?.addEventListener("abort", onAbort, { once: true });
    });
    const ending = await Promise.race([answered, exited, timedOut, aborted]);
    clearTimeout(timer);
    if (onAbort) input.signal?.removeEventListener("abort", onAbort);
    // Updates received before the prompt's answer are dispatched first.
    await new Promise((r) => setImmediate(r));

    if (ending.kind === "answered" || ending.kind === "refused") {
      if (turn.permissionFailure) return turn.queue.push({ type: "error", code: "ACP_PERMISSION_UNAVAILABLE", message: `${name}: ${turn.permissionFailure}.` });
      if (ending.kind === "refused") {
        // A refusal caused by the agent dying (its stdout closed first) is reported as its exit.
        if (agent.connection.signal.aborted) await Promise.race([exited, new Promise((r) => setTimeout(r, CANCEL_GRACE_MS).unref())]);
        if (agent.process.hasExited) return turn.queue.push({ type: "error", code: "ACP_AGENT_EXITED", message: ((await exited) as { message: string }).message, retryable: true });
        return turn.queue.push({ type: "error", code: "ACP_TURN_FAILED", message: `${name} failed the prompt: ${ending.message}` });
      }
      return turn.queue.push({ type: "done", stopReason: ending.stopReason, ...usageOf(ending.usage) });
    }
    if (ending.kind === "exited") return turn.queue.push({ type: "error", code: "ACP_AGENT_EXITED", message: ending.message, retryable: true });

    // Timeout or abort: ask the agent to stop, and end its process group if it does not.
    agent.cancel();
    const stopped = await Promise.race([answered.then(() => true), exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), CANCEL_GRACE_MS).unref())]);
    if (!stopped) {
      this.deps.logger.warn({ agent: handle.agent, sessionKey: handle.sessionKey }, "acp agent did not stop after session/cancel; killing its process group");
      await agent.dispose();
    }
    if (ending.kind === "timeout") {
      return turn.queue.push({
        type: "error",
        code: "ACP_TIMEOUT",
        message: `${name} did not finish the turn within ${Math.round(timeoutMs / 1000)} s (${input.timeout?.setting}); it was cancelled${stopped ? "" : " and its process killed"}.`,
        retryable: true,
      });
    }
    turn.queue.push({ type: "done", stopReason: "cancelled" });
  }

  private onUpdate(live: LiveSession, update: SessionUpdate): void {
    live.lastUpdateAt = Date.now();
    if (update.sessionUpdate === "session_info_update" && update.title) live.title = update.title;
    const event = mapSessionUpdate(update);
    if (!event) return;
    // After the prompt's answer an agent may still send updates (a title): kept, not streamed.
    if (live.turn) live.turn.queue.push(event);
    else this.deps.logger.debug({ sessionKey: live.handle.sessionKey, tag: update.sessionUpdate }, "acp update after the turn");
  }

  async cancel(input: { handle: AcpRuntimeHandle; reason?: string }): Promise<void> {
    const live = this.sessions.get(input.handle.sessionKey);
    if (live?.turn) live.agent.cancel();
  }

  async close(input: { handle: AcpRuntimeHandle; reason: string }): Promise<void> {
    const live = this.sessions.get(input.handle.sessionKey);
    if (!live) return;
    this.sessions.delete(input.handle.sessionKey);
    this.deps.logger.debug({ sessionKey: input.handle.sessionKey, reason: input.reason }, "acp session closed");
    await live.agent.dispose();
    this.deps.onProcess?.(input.handle.sessionKey, undefined);
  }

  /** Ends every agent process (gateway shutdown). */
  async closeAll(reason: string): Promise<void> {
    await Promise.all([...this.sessions.values()].map((live) => this.close({ handle: live.handle, reason })));
  }

  /** The agent-side facts the control plane persists. */
  describe(sessionKey: string): { loadSession: boolean; pid?: number } | undefined {
    const live = this.sessions.get(sessionKey);
    if (!live) return undefined;
    return { loadSession: live.agent.canLoadSession, ...(live.agent.process.pid ? { pid: live.agent.process.pid } : {}) };
  }

  isAlive(sessionKey: string): boolean {
    const live = this.sessions.get(sessionKey);
    return Boolean(live && !live.agent.process.hasExited);
  }

  async getCapabilities(input: { handle?: AcpRuntimeHandle }): Promise<AcpRuntimeCapabilities> {
    const live = input.handle ? this.sessions.get(input.handle.sessionKey) : undefined;
    const caps = live?.agent.initialize?.agentCapabilities;
    return { loadSession: caps?.loadSession === true, supportsImages: caps?.promptCapabilities?.image === true, controls: ["session/status"] };
  }

  async getStatus(input: { handle: AcpRuntimeHandle }): Promise<AcpRuntimeStatus> {
    const live = this.sessions.get(input.handle.sessionKey);
    if (!live) return { summary: "no agent process", backendSessionId: input.handle.backendSessionId };
    const state = live.agent.process.hasExited ? "exited" : live.turn ? "running a turn" : "idle";
    return {
      summary: `${live.handle.agent}: ${state}${live.title ? ` — ${live.title}` : ""}`,
      backendSessionId: live.handle.backendSessionId,
      ...(live.agent.process.pid ? { pid: live.agent.process.pid } : {}),
      details: { agentInfo: live.agent.initialize?.agentInfo ?? null, loadSession: live.agent.canLoadSession, ...(live.lastUpdateAt ? { lastUpdateAt: live.lastUpdateAt } : {}) },
    };
  }

  /**
   * Checks each agent the config names (every known adapter when it names none): its command is
   * found, it answers initialize, it speaks protocol 1.
   */
  async doctor(): Promise<AcpRuntimeDoctorReport> {
    const settings = this.deps.settings();
    const named = settings.configuredAgents.length > 0 ? settings.configuredAgents : Object.keys(settings.agents);
    const ids = named.filter((id) => settings.agents[id]);
    const agents = await Promise.all(ids.map((id) => this.checkAgent(id, settings)));
    return { ok: agents.every((a) => a.ok), agents };
  }

  private async checkAgent(agentId: string, settings: AcpSettings): Promise<AcpRuntimeDoctorCheck> {
    const command = settings.agents[agentId]!;
    try {
      const agent = await AgentConnection.start({
        agentId,
        command,
        cwd: process.cwd(),
        baseEnv: this.deps.env ?? process.env,
        logger: this.deps.logger,
        timeoutMs: Math.min(DOCTOR_TIMEOUT_MS, settings.timeoutSeconds * 1000),
        permissions: () => ({ mode: "deny-all", nonInteractive: "deny" }),
        ask: async () => "unavailable",
        onUpdate: () => {},
        onPermissionFailure: () => {},
      });
      const info = agent.initialize?.agentInfo;
      await agent.dispose();
      return {
        agent: agentId,
        ok: true,
        protocolVersion: agent.initialize!.protocolVersion,
        message: `\`${command.command}\` answers initialize (protocol ${agent.initialize!.protocolVersion}${info ? `, ${info.name} ${info.version}` : ""}).`,
      };
    } catch (err) {
      const e = err as AcpRuntimeError;
      return { agent: agentId, ok: false, ...(e.code ? { code: e.code } : {}), message: e.message, ...(command.installHint ? { installCommand: command.installHint } : {}) };
    }
  }
}

function usageOf(raw: unknown): { usage?: { inputTokens?: number; outputTokens?: number } } {
  if (!raw || typeof raw !== "object") return {};
  const u = raw as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const inputTokens = num(u.inputTokens);
  const outputTokens = num(u.outputTokens);
  if (inputTokens === undefined && outputTokens === undefined) return {};
  return { usage: { ...(inputTokens !== undefined ? { inputTokens } : {}), ...(outputTokens !== undefined ? { outputTokens } : {}) } };
}
