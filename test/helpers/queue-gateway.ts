import type { FakeModelServer, FakeReply } from "../fakes/model-server.js";
import { startFakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "./gateway-process.js";
import { lastUserText, makeAgentState, removeFastTempDirs, requestMessages, startOn } from "./reliability.js";
import { Rpc } from "./rpc.js";
import { openOperator, type Frame } from "./ws-client.js";

/** A gateway with `messages.queue` set, the fake model behind it, and one operator connection. */
export interface QueueGateway {
  server: FakeModelServer;
  gw: GatewayProcess;
  rpc: Rpc;
  /** `agent.wait` for a run, long enough for a loaded machine. */
  wait(runId: string): Promise<{ payload?: any }>;
  /** The `chat` events this connection received so far for a run, in order. */
  chatEvents(runId: string): any[];
  /** The run's terminal `chat` event (final, error or aborted), once it arrives. */
  chatEnd(runId: string): Promise<any>;
  close(): Promise<void>;
}

const TERMINAL_CHAT_STATES = ["final", "error", "aborted"];

/** `agentDefaults` is merged into `agents.defaults` (e.g. `maxConcurrent`). */
export async function startQueueGateway(token: string, queue: Record<string, unknown>, agentDefaults?: Record<string, unknown>): Promise<QueueGateway> {
  const server = await startFakeModelServer();
  const gw = await startOn(makeAgentState(server, { extra: { messages: { queue } }, ...(agentDefaults ? { agentDefaults } : {}) }), token);
  const rpc = new Rpc((await openOperator(gw.url, token)).sock);
  const isChatOf = (f: Frame, runId: string) => f.type === "event" && f.event === "chat" && f.payload?.runId === runId;
  return {
    server,
    gw,
    rpc,
    wait: (runId) => rpc.request("agent.wait", { runId, timeoutMs: 10_000 }, 15_000),
    chatEvents: (runId) => rpc.sock.frames.filter((f) => isChatOf(f, runId)).map((f) => f.payload),
    chatEnd: (runId) =>
      rpc.sock
        .waitFor((f) => isChatOf(f, runId) && TERMINAL_CHAT_STATES.includes(f.payload.state), 15_000)
        .then(
          (f) => f.payload,
          () => Promise.reject(new Error(`no terminal chat event for run ${runId}`)),
        ),
    close: async () => {
      rpc.sock.close();
      await gw.stop();
      await server.close();
      removeFastTempDirs();
    },
  };
}

/** The text of a `chat` event's message, or undefined when it carries none. */
export function replyText(event: any): string | undefined {
  return event.message?.content?.map((b: any) => b.text ?? "").join("");
}

/** A model answer held back: `arrived` settles once the model was asked, `release()` lets it answer. */
export interface HeldAnswer {
  release(): void;
  arrived: Promise<void>;
}

/**
 * The model holds its answer to the user message `text` until `release()`; `arrived` settles once
 * it was asked. Every other request is answered at once with `A:<its last user text>`.
 */
export function holdAnswerTo(server: FakeModelServer, text: string, reply: () => FakeReply = () => ({ text: `A:${text}` })): HeldAnswer {
  return holdAnswersTo(server, [text], reply)[0]!;
}

/** `holdAnswerTo` for several user messages at once, each held until its own `release()` (in the order of `texts`). */
export function holdAnswersTo(server: FakeModelServer, texts: string[], reply?: () => FakeReply): HeldAnswer[] {
  const holds = texts.map((text) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let seen!: () => void;
    const arrived = new Promise<void>((resolve) => (seen = resolve));
    return { text, release, arrived, held, seen };
  });
  server.setResponder(async (request) => {
    const last = requestMessages(request).at(-1);
    const hold = last?.role === "user" ? holds.find((h) => h.text === last.text) : undefined;
    if (hold) {
      hold.seen();
      await hold.held;
      return reply ? reply() : { text: `A:${hold.text}` };
    }
    return { text: `A:${lastUserText(request)}` };
  });
  return holds.map(({ release, arrived }) => ({ release, arrived }));
}
