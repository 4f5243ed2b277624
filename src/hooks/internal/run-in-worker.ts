import { Worker } from "node:worker_threads";
import type { InternalHookEvent } from "./types.js";

import type { HookAgentTurnRequest } from "./types.js";

export type HandlerOutcome =
  | { ok: true; messages: string[]; agentTurns: HookAgentTurnRequest[]; context?: Record<string, unknown>; ms: number }
  | { ok: false; error: string; ms: number };

const MAX_AGENT_TURNS = 10;
const MAX_TURN_MESSAGE_CHARS = 50_000;

// Runs in the worker: load the handler module, call it with the event, report what it did.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { pathToFileURL } = require("node:url");
(async () => {
  try {
    const mod = await import(pathToFileURL(workerData.handlerPath).href);
    const fn = typeof mod.default === "function" ? mod.default : typeof mod.handler === "function" ? mod.handler : undefined;
    if (!fn) throw new Error("the handler file exports no function (export default async (event) => { … })");
    const event = workerData.event;
    await fn(event);
    const turns = Array.isArray(event.agentTurns) ? event.agentTurns.filter((t) => t && typeof t.message === "string").map((t) => ({ message: t.message, agentId: typeof t.agentId === "string" ? t.agentId : undefined })) : [];
    parentPort.postMessage({ ok: true, context: workerData.returnContext ? event.context : undefined, messages: Array.isArray(event.messages) ? event.messages.filter((m) => typeof m === "string") : [], agentTurns: turns });
  } catch (err) {
    parentPort.postMessage({ ok: false, error: err && err.stack ? String(err.stack).split("\\n").slice(0, 3).join(" | ") : String(err) });
  }
})();
`;

/**
 * One handler call in its own worker thread, so nothing it does reaches the gateway: a throw is
 * an error, `process.exit` ends only the worker, and one that runs past `timeoutMs` is terminated.
 */
export function runHandlerInWorker(handlerPath: string, event: InternalHookEvent, timeoutMs: number, returnContext = false): Promise<HandlerOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: HandlerOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
      void worker.terminate();
    };
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { handlerPath, event, returnContext }, resourceLimits: { maxOldGenerationSizeMb: 64 } });
    worker.unref();
    const timer = setTimeout(() => finish({ ok: false, error: `did not finish within ${timeoutMs} ms (hooks.internal.timeoutMs); stopped`, ms: ms() }), timeoutMs);
    worker.on("message", (message: { ok: boolean; messages?: string[]; agentTurns?: HookAgentTurnRequest[]; context?: Record<string, unknown>; error?: string }) =>
      finish(
        message.ok
          ? { ok: true, messages: message.messages ?? [], agentTurns: boundedTurns(message.agentTurns), ...(message.context ? { context: message.context } : {}), ms: ms() }
          : { ok: false, error: message.error ?? "failed", ms: ms() },
      ),
    );
    worker.on("error", (err) => finish({ ok: false, error: err.message, ms: ms() }));
    worker.on("exit", (code) => finish({ ok: false, error: `the handler ended its thread (exit code ${code}) before finishing`, ms: ms() }));
  });
}

/** A handler asks for a few turns of a bounded size; the rest is dropped. */
function boundedTurns(turns: HookAgentTurnRequest[] | undefined): HookAgentTurnRequest[] {
  return (turns ?? [])
    .filter((t) => t.message.trim() !== "" && t.message.length <= MAX_TURN_MESSAGE_CHARS)
    .slice(0, MAX_AGENT_TURNS)
    .map((t) => (t.agentId ? { message: t.message, agentId: t.agentId } : { message: t.message }));
}
