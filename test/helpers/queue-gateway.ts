import type { FakeModelServer, FakeReply } from "../fakes/model-server.js";
import { startFakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "./gateway-process.js";
import { lastUserText, makeAgentState, removeFastTempDirs, requestMessages, startOn, type AgentStateOptions } from "./reliability.js";
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
  /** Stops the gateway and starts it again on the same state dir, with a new operator connection. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const TERMINAL_CHAT_STATES = ["final", "error", "aborted"];

/** `agentDefaults` is merged into `agents.defaults` (e.g. `maxConcurrent`); `reasoning` makes the fake model a reasoning model. */
export async function startQueueGateway(
  token: string,
  queue: Record<string, unknown>,
  agentDefaults?: Record<string, unknown>,
  model: Pick<AgentStateOptions, "reasoning"> = {},
): Promise<QueueGateway> {
  const server = await startFakeModelServer();
  const gw = await startOn(makeAgentState(server, { extra: { messages: { queue } }, ...(agentDefaults ? { agentDefaults } : {}), ...model }), token);
  const rpc = new Rpc((await openOperator(gw.url, token)).sock);
  const isChatOf = (f: Frame, runId: string) => f.type === "event" && f.event === "chat" && f.payload?.runId === runId;
  const q: QueueGateway = {
    server,
    gw,
    rpc,
    wait: (runId) => q.rpc.request("agent.wait", { runId, timeoutMs: 10_000 }, 15_000),
    chatEvents: (runId) => q.rpc.sock.frames.filter((f) => isChatOf(f, runId)).map((f) => f.payload),
    chatEnd: (runId) =>
      q.rpc.sock
        .waitFor((f) => isChatOf(f, runId) && TERMINAL_CHAT_STATES.includes(f.payload.state), 15_000)
        .then(
          (f) => f.payload,
          () => Promise.reject(new Error(`no terminal chat event for run ${runId}`)),
        ),
    restart: async () => {
      q.rpc.sock.close();
      await q.gw.stop();
      q.gw = await startOn(q.gw.stateDir, token);
      q.rpc = new Rpc((await openOperator(q.gw.url, token)).sock);
    },
    close: async () => {
      q.rpc.sock.close();
      await q.gw.stop();
      await server.close();
      removeFastTempDirs();
    },
  };
  return q;
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

/** Sends one message under its idempotency key (`chat.send` with whatever else a test needs). */
export type SendMessage = (message: string, idempotencyKey: string) => Promise<Frame>;

/**
 * Holds the model's answer to `first` and sends it as run `firstRunId`, so its turn starts and
 * waits; then sends `waiting` (each `[text, runId]`), which queue behind it. Returns the held answer.
 */
export async function sendBehindHeldAnswer(
  server: FakeModelServer,
  send: SendMessage,
  [first, firstRunId]: [text: string, runId: string],
  waiting: [text: string, runId: string][],
): Promise<HeldAnswer> {
  const held = holdAnswerTo(server, first);
  const started = await send(first, firstRunId);
  if ((started.payload as { status?: string } | undefined)?.status !== "started") throw new Error(`${first} did not start a turn: ${JSON.stringify(started)}`);
  await held.arrived;
  for (const [text, runId] of waiting) {
    const sent = await send(text, runId);
    if (!sent.ok) throw new Error(`${text} was not accepted: ${JSON.stringify(sent)}`);
  }
  return held;
}

/**
 * Starts the session's turn for `first` (runId `<first>-run`) and holds its answer, then sends
 * `waiting` (each `[text, runId]`), which queue behind it. Returns the sender and the release.
 */
export async function holdFirstThenSend(q: QueueGateway, sessionKey: string, first: string, waiting: [text: string, runId: string][]) {
  const send: SendMessage = (message, idempotencyKey) => q.rpc.request("chat.send", { sessionKey, message, idempotencyKey });
  const held = await sendBehindHeldAnswer(q.server, send, [first, `${first}-run`], waiting);
  return { send, release: held.release };
}

/**
 * `<p>-first` (run `<p>-1`) runs with its answer held, then `<p>-second` and `<p>-third` (runs
 * `<p>-2`, `<p>-3`) are sent behind it: in `collect` mode they become one turn once it is released.
 */
export function sendTwoBehindHeldFirst(server: FakeModelServer, p: string, send: SendMessage): Promise<HeldAnswer> {
  return sendBehindHeldAnswer(
    server,
    send,
    [`${p}-first`, `${p}-1`],
    [
      [`${p}-second`, `${p}-2`],
      [`${p}-third`, `${p}-3`],
    ],
  );
}
