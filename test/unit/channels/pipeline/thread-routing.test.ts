import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { applyDefaults } from "../../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../../src/config/index.js";
import type { ConversationService } from "../../../../src/conversations/conversation-service.js";
import { PairingStore } from "../../../../src/channels/access/pairing-store.js";
import type { FocusTargetResolver } from "../../../../src/channels/commands/focus-command.js";
import { InboundDispatcher } from "../../../../src/channels/dispatch/inbound-dispatcher.js";
import type { RunningAccount } from "../../../../src/channels/dispatch/running-account.js";
import { InboundDedupeCache } from "../../../../src/channels/inbound/dedupe-cache.js";
import type { DeliveryTarget } from "../../../../src/channels/outbound/delivery-ledger.js";
import type { ReplyDelivery } from "../../../../src/channels/outbound/reply-delivery.js";
import { ThreadBindingStore } from "../../../../src/channels/thread-bindings.js";
import type { InboundMessage } from "../../../../src/channels/types.js";
import { SessionStore } from "../../../../src/sessions/store/index.js";

/**
 * The inbound pipeline's thread-binding override: a message in a bound thread goes to the bound
 * session (its dedupe key and agent with it), `/focus` and `/unfocus` change that, and a binding
 * whose session is gone routes normally again. The conversation service and the delivery are
 * recorders; access, routing, dedupe and commands are the real ones.
 */

const CHANNEL_KEY = "agent:main:slack:channel:c1";
const THREAD_TS = "1700000000.000100";
const THREAD_KEY = `${CHANNEL_KEY}:thread:${THREAD_TS}`;
const CHILD = "agent:worker:subagent:1111";
const thread = { channel: "slack", accountId: "default", chatId: "C1", threadId: THREAD_TS };

interface Submitted {
  sessionKey: string;
  agentId?: string;
  idempotencyKey: string;
  message: string;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup(resolveTarget?: FocusTargetResolver) {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "thread-routing-"));
  const store = new SessionStore(stateDir);
  const dedupe = InboundDedupeCache.open(path.join(stateDir, "dedupe.jsonl"));
  cleanups.push(() => {
    dedupe.close();
    store.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });
  const bindings = new ThreadBindingStore(stateDir);
  const submitted: Submitted[] = [];
  const replies: { target: DeliveryTarget; text: string }[] = [];
  const never = new Promise<never>(() => {});
  const conversations = {
    submit: async (input: Submitted) => {
      submitted.push(input);
      return { kind: "accepted", run: { runId: input.idempotencyKey, done: never } };
    },
    hasAccepted: () => false,
  } as unknown as ConversationService;
  const delivery = {
    expect: async () => {},
    queueText: async (_id: string, target: DeliveryTarget, text: string) => void replies.push({ target, text }),
  } as unknown as ReplyDelivery;
  const config = applyDefaults({ agents: { entries: { main: { default: true }, worker: {} } } } as never) as OpenClawConfig;
  const dispatcher = new InboundDispatcher({
    config: () => config,
    conversations,
    store,
    dedupe,
    pairing: new PairingStore(stateDir),
    delivery,
    logger: pino({ level: "silent" }),
    threadBindings: bindings,
    focusTarget: resolveTarget,
  });
  const running: RunningAccount = {
    channel: "slack",
    accountId: "default",
    config: { channels: { "*": {} } },
    account: {} as RunningAccount["account"],
    limits: { textChunkLimit: 4000 },
    status: { accountId: "default", running: true, connected: true, reconnectAttempts: 0, lastConnectedAt: null, lastError: null, botId: "UBOT" },
  };
  let nextTs = 1;
  const say = (text: string, extra: Partial<InboundMessage> = {}) =>
    dispatcher.dispatch(running, {
      messageId: `1700000001.${String(nextTs++).padStart(6, "0")}`,
      chatType: "channel",
      chatId: "C1",
      threadId: THREAD_TS,
      senderId: "U1",
      text,
      timestamp: Date.now(),
      mentionedBot: text.includes("<@UBOT>"),
      ...extra,
    });
  return { store, bindings, submitted, replies, say };
}

describe("thread bindings in the inbound pipeline", () => {
  it("a message in a bound thread goes to the bound session, without a mention, deduped under that session", async () => {
    const { store, bindings, submitted, say } = setup();
    store.ensure(CHILD);
    bindings.bind(thread, CHILD, { label: "research" });
    await say("what did you find?");
    expect(submitted).toEqual([expect.objectContaining({ sessionKey: CHILD, agentId: "worker", message: "[U1] what did you find?" })]);
    expect(submitted[0]!.idempotencyKey).toContain(`|${CHILD}|`);
    // Elsewhere in the channel nothing changed: no mention, no reply; with one, the chat's own sessions.
    await say("chatting", { threadId: undefined });
    await say("<@UBOT> hello", { threadId: "1700000000.000999" });
    expect(submitted.map((s) => s.sessionKey)).toEqual([CHILD, `${CHANNEL_KEY}:thread:1700000000.000999`]);
  });

  it("a binding whose session no longer exists is dropped, and the thread routes to its own session again", async () => {
    const { bindings, submitted, say } = setup();
    bindings.bind(thread, CHILD);
    await say("anyone there?");
    expect(submitted).toEqual([]);
    expect(bindings.get(thread)).toBeUndefined();
    await say("<@UBOT> anyone there?");
    expect(submitted.map((s) => s.sessionKey)).toEqual([THREAD_KEY]);
  });

  it("/focus binds the thread to a sub-agent of the thread's or its channel's session; /unfocus undoes it", async () => {
    const asked: { owners: readonly string[]; target: string }[] = [];
    const { store, bindings, submitted, replies, say } = setup((owners, target) => {
      asked.push({ owners, target });
      return target === "research" ? { ok: true, sessionKey: CHILD, label: "research" } : { ok: false, message: `No sub-agent of this chat matches "${target}".` };
    });
    store.ensure(CHILD);
    await say("<@UBOT> /focus nobody");
    expect(replies.at(-1)!.text).toBe('⚠️ No sub-agent of this chat matches "nobody".');
    await say("<@UBOT> /focus research");
    expect(asked.at(-1)).toEqual({ owners: [THREAD_KEY, CHANNEL_KEY], target: "research" });
    expect(replies.at(-1)).toEqual({
      target: expect.objectContaining({ chatId: "C1", threadId: THREAD_TS }),
      text: expect.stringMatching(/^🎯 Focused: messages in this thread now go to sub-agent "research"/),
    });
    expect(bindings.get(thread)).toMatchObject({ sessionKey: CHILD, label: "research" });
    await say("follow-up");
    expect(submitted.map((s) => s.sessionKey)).toEqual([CHILD]);

    // Commands in a bound thread still reach the gateway, not the sub-agent.
    await say("/unfocus");
    expect(replies.at(-1)!.text).toBe('Unfocused: messages in this thread no longer go to sub-agent "research".');
    expect(bindings.get(thread)).toBeUndefined();
    await say("/unfocus");
    expect(submitted.map((s) => s.sessionKey)).toEqual([CHILD]);
    await say("<@UBOT> /unfocus");
    expect(replies.at(-1)!.text).toBe("This thread is not focused on a sub-agent.");
    await say("<@UBOT> back to you");
    expect(submitted.map((s) => s.sessionKey)).toEqual([CHILD, THREAD_KEY]);
  });

  it("/focus outside a thread binds the whole chat; without sub-agents it says so", async () => {
    const { store, bindings, replies, say } = setup((owners) => ({ ok: true, sessionKey: CHILD, label: `of ${owners.join(",")}` }));
    store.ensure(CHILD);
    await say("<@UBOT> /focus #1", { threadId: undefined });
    expect(bindings.get({ channel: "slack", accountId: "default", chatId: "C1" })).toMatchObject({ sessionKey: CHILD, label: `of ${CHANNEL_KEY}` });
    expect(replies.at(-1)!.text).toMatch(/messages in this chat now go to sub-agent/);

    const bare = setup();
    await bare.say("<@UBOT> /focus research");
    expect(bare.replies.at(-1)!.text).toBe("Sub-agents are not available on this gateway.");
    await bare.say("<@UBOT> /focus");
    expect(bare.replies.at(-1)!.text).toMatch(/^This thread is not focused on a sub-agent\.\nUsage: \/focus <#n\|label\|runId>/);
  });
});
