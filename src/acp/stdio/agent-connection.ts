import { Readable, Writable } from "node:stream";
import {
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type AnyMessage,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type InitializeResponse,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import type { Logger } from "../../infra/logger.js";
import type { AcpAgentCommand, NonInteractivePermissions, PermissionMode } from "../config.js";
import { AcpRuntimeError } from "../runtime/types.js";
import { buildAgentEnv } from "./agent-env.js";
import { AgentProcess, type AgentExit } from "./agent-process.js";
import { readTextFile, writeTextFile } from "./client-fs.js";
import { findCommand, whyCommandIsMissing } from "./command-lookup.js";
import { createLineGuard } from "./line-guard.js";
import { decidePermission, type PermissionAnswer } from "./permissions.js";

/** Lines longer than this on an agent's stdout are skipped (a file written through the client fits). */
export const MAX_AGENT_LINE_BYTES = 8 * 1024 * 1024;

/** How long a failed write waits for the agent's exit to explain it. */
const EXIT_AFTER_WRITE_FAILURE_MS = 1_000;

/**
 * What the gateway serves to agents. Terminals are not offered: this client does not implement
 * them. Elicitation (forms and URLs) is offered where someone can be asked (`elicit`).
 */
export const CLIENT_CAPABILITIES = { fs: { readTextFile: true, writeTextFile: true }, terminal: false } as const;

export interface AgentConnectionOptions {
  agentId: string;
  command: AcpAgentCommand;
  cwd: string;
  baseEnv: NodeJS.ProcessEnv;
  logger: Logger;
  timeoutMs: number;
  permissions: () => { mode: PermissionMode; nonInteractive: NonInteractivePermissions };
  /** Asks a person about a permission request; `unavailable` when nobody can answer. */
  ask: (title: string, kind: string | undefined) => Promise<PermissionAnswer>;
  /** Every session/update for this connection's session, in arrival order. */
  onUpdate: (update: SessionUpdate) => void;
  /** Answers the agent's `elicitation/create` (a form or a URL step) by asking a person, until `signal` (the agent withdrew it, or left); absent: not offered. */
  elicit?: (request: CreateElicitationRequest, signal: AbortSignal) => Promise<CreateElicitationResponse>;
  /** A permission could not be asked and policy says the turn fails. */
  onPermissionFailure: (message: string) => void;
  /** The process was spawned (before `initialize`): its pid. */
  onSpawn?: (pid: number) => void;
}

/**
 * One agent process and its ACP connection (the SDK's client side over ndJSON stdio). It
 * answers what the agent asks of the client — permissions, confined file reads and writes —
 * and reports everything the agent sends. Each request it makes races the agent's exit and a
 * timeout, so a dead or silent agent is an error with its name, never a hang.
 */
export class AgentConnection {
  readonly process: AgentProcess;
  readonly connection: ClientConnection;
  sessionId?: string;
  initialize?: InitializeResponse;

  private constructor(
    private readonly opts: AgentConnectionOptions,
    executable: string,
    env: NodeJS.ProcessEnv,
  ) {
    this.process = new AgentProcess(executable, opts.command.args, {
      cwd: opts.cwd,
      env,
      onStderr: (line) => opts.logger.debug({ agent: opts.agentId, line: line.slice(0, 500) }, "acp agent stderr"),
    });
    const guard = createLineGuard(MAX_AGENT_LINE_BYTES, (reason, sample) =>
      opts.logger.warn({ agent: opts.agentId, reason, ...(sample ? { sample } : {}) }, "acp agent wrote a line that is not a protocol message; skipped"),
    );
    const stdout = (Readable.toWeb(this.process.child.stdout) as ReadableStream<Uint8Array>).pipeThrough(guard);
    const stdin = Writable.toWeb(this.process.child.stdin) as WritableStream<Uint8Array>;
    const app = client({ name: "openclaw-gateway" })
      // Updates are taken from the stream in arrival order (observeUpdate): the SDK dispatches
      // notifications asynchronously, which could let a prompt's answer overtake its last chunk.
      .onNotification("session/update", () => {})
      .onRequest("session/request_permission", async ({ params }) => {
        const decision = await decidePermission(params, opts.permissions(), () => opts.ask(params.toolCall.title ?? params.toolCall.toolCallId, params.toolCall.kind ?? undefined));
        if (decision.failure) opts.onPermissionFailure(decision.failure);
        return decision.response;
      })
      .onRequest("elicitation/create", ({ params, signal }) => {
        if (!opts.elicit) throw RequestError.methodNotFound("elicitation/create");
        return opts.elicit(params, signal);
      })
      .onRequest("fs/read_text_file", ({ params }) => readTextFile(opts.cwd, params))
      .onRequest("fs/write_text_file", ({ params }) => {
        if (opts.permissions().mode === "deny-all") throw RequestError.invalidParams(undefined, "writes are refused: permissionMode is deny-all");
        writeTextFile(opts.cwd, params);
        return {};
      })
      .onNotification("*", ({ method }) => opts.logger.debug({ agent: opts.agentId, method }, "acp agent notification ignored"))
      .onRequest("*", ({ method }) => {
        opts.logger.debug({ agent: opts.agentId, method }, "acp agent request not served");
        throw RequestError.methodNotFound(method);
      });
    const stream = ndJsonStream(stdin, stdout);
    const observed = stream.readable.pipeThrough(
      new TransformStream<AnyMessage, AnyMessage>({
        transform: (message, controller) => {
          this.observeUpdate(message);
          controller.enqueue(message);
        },
      }),
    );
    this.connection = app.connect({ readable: observed, writable: stream.writable });
  }

  private observeUpdate(message: AnyMessage): void {
    if (!("method" in message) || message.method !== "session/update" || "id" in message) return;
    const params = message.params as { sessionId?: unknown; update?: { sessionUpdate?: unknown } } | undefined;
    if (!params || params.sessionId !== this.sessionId || typeof params.update?.sessionUpdate !== "string") return;
    try {
      this.opts.onUpdate(params.update as SessionUpdate);
    } catch (err) {
      this.opts.logger.warn({ agent: this.opts.agentId, tag: params.update.sessionUpdate, err: (err as Error).message }, "acp agent sent a malformed session/update; skipped");
    }
  }

  /** Starts the agent and completes `initialize`; the process is killed again if that fails. */
  static async start(opts: AgentConnectionOptions): Promise<AgentConnection> {
    const env = buildAgentEnv(opts.baseEnv, opts.command.env);
    const executable = findCommand(opts.command.command, env, opts.cwd);
    if (!executable) {
      const hint = opts.command.installHint
        ? ` Install it: ${opts.command.installHint}`
        : ` Install the agent's ACP adapter, or set acp.agents.${opts.agentId}.command to its path.`;
      throw new AcpRuntimeError("ACP_COMMAND_NOT_FOUND", `ACP agent \`${opts.agentId}\`: command not found (${whyCommandIsMissing(opts.command.command, opts.cwd)}).${hint}`);
    }
    const agent = new AgentConnection(opts, executable, env);
    if (agent.process.pid) opts.onSpawn?.(agent.process.pid);
    try {
      const init = await agent.request<InitializeResponse>("initialize", () =>
        agent.connection.agent.request("initialize", {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: opts.elicit ? { ...CLIENT_CAPABILITIES, elicitation: { form: {}, url: {} } } : CLIENT_CAPABILITIES,
          clientInfo: { name: "openclaw", version: "1" },
        }),
      );
      if (init.protocolVersion !== PROTOCOL_VERSION) {
        throw new AcpRuntimeError(
          "ACP_PROTOCOL_MISMATCH",
          `ACP agent \`${opts.agentId}\` speaks protocol version ${init.protocolVersion}; this gateway speaks ${PROTOCOL_VERSION}. Update the agent's ACP adapter.`,
        );
      }
      agent.initialize = init;
      return agent;
    } catch (err) {
      await agent.dispose();
      throw err;
    }
  }

  get canLoadSession(): boolean {
    return this.initialize?.agentCapabilities?.loadSession === true;
  }

  async newSession(): Promise<string> {
    const res = await this.request("session/new", () => this.connection.agent.request("session/new", { cwd: this.opts.cwd, mcpServers: [] }));
    this.sessionId = res.sessionId;
    return res.sessionId;
  }

  async resumeSession(sessionId: string): Promise<void> {
    if (!this.canLoadSession)
      throw new AcpRuntimeError("ACP_RESUME_UNSUPPORTED", `ACP agent \`${this.opts.agentId}\` cannot resume sessions (it does not advertise session/load).`);
    this.sessionId = sessionId;
    try {
      await this.request("session/load", () => this.connection.agent.request("session/load", { sessionId, cwd: this.opts.cwd, mcpServers: [] }));
    } catch (err) {
      this.sessionId = undefined;
      if (err instanceof AcpRuntimeError && err.code !== "ACP_SESSION_FAILED") throw err;
      throw new AcpRuntimeError("ACP_RESUME_FAILED", `ACP agent \`${this.opts.agentId}\` could not load session ${sessionId}: ${(err as Error).message}`);
    }
  }

  /** Runs one request against the agent's exit and the timeout. */
  async request<T>(what: string, send: () => Promise<T>, timeoutMs = this.opts.timeoutMs): Promise<T> {
    if (this.process.hasExited) throw new AcpRuntimeError("ACP_AGENT_EXITED", `ACP agent \`${this.opts.agentId}\` is not running.`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new AcpRuntimeError("ACP_TIMEOUT", `ACP agent \`${this.opts.agentId}\` did not answer ${what} within ${Math.round(timeoutMs / 1000)} s.`, true)),
        timeoutMs,
      );
    });
    const exit = this.process.exited.then((e) => {
      throw new AcpRuntimeError("ACP_AGENT_EXITED", `ACP agent \`${this.opts.agentId}\` ${this.process.describeExit(e)} during ${what}.`, true);
    });
    try {
      return await Promise.race([send(), timeout, exit]);
    } catch (err) {
      if (err instanceof AcpRuntimeError) throw err;
      // A write to an agent that is dying fails (EPIPE) before its exit is seen; the exit, with
      // what the agent wrote to stderr, says why. An error the agent answered is its refusal.
      const exit = isAgentAnswer(err) ? undefined : await exitWithin(this.process, EXIT_AFTER_WRITE_FAILURE_MS);
      if (exit) throw new AcpRuntimeError("ACP_AGENT_EXITED", `ACP agent \`${this.opts.agentId}\` ${this.process.describeExit(exit)} during ${what}.`, true);
      const code = what === "initialize" ? "ACP_INITIALIZE_FAILED" : "ACP_SESSION_FAILED";
      throw new AcpRuntimeError(code, `ACP agent \`${this.opts.agentId}\` refused ${what}: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  cancel(): void {
    if (this.sessionId && !this.process.hasExited) void this.connection.agent.notify("session/cancel", { sessionId: this.sessionId }).catch(() => {});
  }

  /** Closes the connection and ends the process group; resolves once it is reaped. */
  async dispose(): Promise<void> {
    this.connection.close();
    await this.process.kill();
  }
}

/** A JSON-RPC error the agent sent (numeric code), as opposed to a failure to reach it. */
function isAgentAnswer(err: unknown): boolean {
  return typeof (err as { code?: unknown })?.code === "number";
}

function exitWithin(agent: AgentProcess, ms: number): Promise<AgentExit | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([agent.exited, timeout]).finally(() => clearTimeout(timer));
}
