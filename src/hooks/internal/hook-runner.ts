import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import { discoverHooks, listensTo, type DiscoveredHook } from "./discover-hooks.js";
import { runHandlerInWorker, type HandlerOutcome } from "./run-in-worker.js";
import { DEFAULT_HOOK_TIMEOUT_MS } from "./hook-timeout.js";
import type { HookAgentTurnRunner, InternalHookEvent, InternalHookSink } from "./types.js";

type EventInput = Pick<InternalHookEvent, "type" | "action" | "sessionKey" | "context">;

/**
 * Events a hook hears at once, in a worker of their own, even while its earlier events still run
 * or wait: the stop waits for `gateway:shutdown` and gives it one handler budget
 * (src/gateway/shutdown-deadline.ts), which a queue of earlier events would use up. OpenClaw, which
 * queues no events, runs its shutdown handlers at once too.
 */
const UNQUEUED_EVENTS: ReadonlySet<string> = new Set(["gateway:shutdown"]);

/** How long a discovery is reused before the folders are read again. */
const DISCOVERY_TTL_MS = 5_000;

export interface HookRunnerDeps {
  config: () => OpenClawConfig;
  stateDir: string;
  bundledDir: string | null;
  workspaceDirOf: (agentId: string) => string;
  defaultAgentId: () => string;
  logger: Logger;
  /** Where the agent turns handlers ask for go; without it they are logged and dropped. */
  agentTurns?: HookAgentTurnRunner;
}

/** Whether a discovered hook runs: internal hooks on, and its own entry enabled (every hook is off until enabled). */
export function hookEnabled(config: OpenClawConfig, name: string): boolean {
  const internal = config.hooks?.internal;
  return internal?.enabled !== false && internal?.entries?.[name]?.enabled === true;
}

/**
 * Internal hooks (docs/automation.md#internal-hooks): on each event, every enabled hook listening
 * to it runs in its own worker thread within the time budget. `emit` returns at once; what a
 * handler does, throws or takes too long is logged and never reaches the turn that caused it.
 * Each hook gets its events one at a time, in the order they were emitted, except the
 * UNQUEUED_EVENTS.
 */
export class InternalHookRunner implements InternalHookSink {
  private cached?: { at: number; hooks: DiscoveredHook[] };
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Per hook, the end of its last queued event: the next one starts after it. */
  private readonly lastOfHook = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: HookRunnerDeps) {}

  hooks(): DiscoveredHook[] {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > DISCOVERY_TTL_MS) {
      const config = this.deps.config();
      this.cached = {
        at: now,
        hooks: discoverHooks({
          bundledDir: this.deps.bundledDir,
          stateDir: this.deps.stateDir,
          extraDirs: config.hooks?.internal?.load?.extraDirs ?? [],
          workspaceDir: this.workspaceDir(),
        }),
      };
    }
    return this.cached.hooks;
  }

  /** The workspace whose `hooks/` folder adds hooks: the default agent's, for every agent. */
  workspaceDir(): string {
    return this.deps.workspaceDirOf(this.deps.defaultAgentId());
  }

  emit(input: EventInput): void {
    void this.track(this.dispatch(input));
  }

  /** Emits and waits for the handlers (within their budget): for `gateway:shutdown`, and tests. */
  async emitAndWait(input: EventInput): Promise<void> {
    await this.track(this.dispatch(input));
  }

  /** Resolves when every handler started so far has ended. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    return work;
  }

  listens(type: InternalHookEvent["type"], action: string): boolean {
    try {
      return this.listeners({ type, action }).length > 0;
    } catch {
      return false;
    }
  }

  async transform(input: EventInput): Promise<Record<string, unknown>> {
    let context = input.context;
    let hooks: DiscoveredHook[];
    try {
      hooks = this.listeners(input);
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, "internal hooks could not be discovered");
      return context;
    }
    for (const hook of hooks) {
      const outcome = await this.runOne(hook, { ...input, context }, true);
      if (outcome.ok && outcome.context) context = outcome.context;
    }
    return context;
  }

  /** Enabled hooks with a handler that listen to the event. */
  private listeners(input: Pick<EventInput, "type" | "action">): DiscoveredHook[] {
    const config = this.deps.config();
    if (config.hooks?.internal?.enabled === false) return [];
    // Every hook is off until enabled: with none enabled, the folders are not even read.
    if (!Object.values(config.hooks?.internal?.entries ?? {}).some((entry) => entry?.enabled === true)) return [];
    return this.hooks().filter((h) => h.handlerPath && hookEnabled(config, h.name) && listensTo(h.events, input.type, input.action));
  }

  private async dispatch(input: EventInput): Promise<void> {
    let hooks: DiscoveredHook[];
    try {
      hooks = this.listeners(input);
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, "internal hooks could not be discovered");
      return;
    }
    const at = Date.now();
    const run = (hook: DiscoveredHook) => this.runOne(hook, input, false, at);
    if (UNQUEUED_EVENTS.has(`${input.type}:${input.action}`)) await Promise.all(hooks.map(run));
    else await Promise.all(hooks.map((hook) => this.inOrder(hook.name, () => run(hook))));
  }

  private inOrder<T>(hookName: string, run: () => Promise<T>): Promise<T> {
    const previous = this.lastOfHook.get(hookName) ?? Promise.resolve();
    const mine = previous.then(run, run);
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.lastOfHook.set(hookName, settled);
    void settled.then(() => {
      if (this.lastOfHook.get(hookName) === settled) this.lastOfHook.delete(hookName);
    });
    return mine;
  }

  /** One hook on one event in its worker; what it did is logged, the turns it asked for are started. */
  private async runOne(hook: DiscoveredHook, input: EventInput, returnContext: boolean, at = Date.now()): Promise<HandlerOutcome> {
    const timeoutMs = this.deps.config().hooks?.internal?.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
    const event: InternalHookEvent = {
      type: input.type,
      action: input.action,
      timestamp: at,
      messages: [],
      agentTurns: [],
      context: { ...input.context, stateDir: this.deps.stateDir },
      ...(input.sessionKey ? { sessionKey: input.sessionKey } : {}),
    };
    const outcome = await runHandlerInWorker(hook.handlerPath!, event, timeoutMs, returnContext);
    const where = { hook: hook.name, event: `${input.type}:${input.action}`, ms: outcome.ms };
    if (!outcome.ok) {
      this.deps.logger.warn({ ...where, err: outcome.error }, "internal hook failed");
      return outcome;
    }
    this.deps.logger.debug({ ...where, messages: outcome.messages }, "internal hook ran");
    for (const request of outcome.agentTurns) {
      if (this.deps.agentTurns) this.deps.agentTurns(hook.name, request);
      else this.deps.logger.warn(where, "internal hook asked for an agent turn where none can run");
    }
    return outcome;
  }
}
