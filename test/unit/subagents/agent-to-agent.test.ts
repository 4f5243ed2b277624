import { describe, expect, it } from "vitest";
import pino from "pino";
import { AgentToAgent } from "../../../src/agents/agent-to-agent/agent-to-agent.js";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { SessionStore } from "../../../src/sessions/store/index.js";
import { FakeConversations, settle } from "./fake-conversations.js";
import { tempStateDir } from "./helpers.js";

const never = new AbortController().signal;

function setup(raw: Record<string, unknown> = {}) {
  const store = new SessionStore(tempStateDir());
  for (const key of ["agent:main:main", "agent:main:peer", "agent:main:third"]) store.ensure(key);
  store.patch("agent:main:peer", { label: "Peer" });
  const conversations = new FakeConversations(store);
  const ownChildren = new Set<string>();
  const a2a = new AgentToAgent({
    config: () => applyDefaults(raw as never) as OpenClawConfig,
    store,
    conversations,
    visibility: () => false,
    isOwnChild: (_caller, target) => ownChildren.has(target),
    logger: pino({ level: "silent" }),
  });
  return { a2a, conversations, ownChildren };
}

const caller = (sessionKey: string) => ({ sessionKey, agentId: "main", senderIsOwner: true, workspaceDir: "/nonexistent" });

describe("AgentToAgent", () => {
  it("replies go back and forth until the 5th reply turn, then stop", async () => {
    const { a2a, conversations } = setup();
    const sent = await a2a.send(caller("agent:main:main"), { sessionKey: "agent:main:peer", message: "ping" }, never);
    expect(sent).toMatchObject({ status: "accepted", sessionKey: "agent:main:peer" });
    for (let hop = 1; ; hop++) {
      const key = conversations.submitted.at(-1)!.idempotencyKey;
      expect(key).toMatch(new RegExp(`:${hop}$`));
      conversations.run(key).finish("ok", `reply ${hop}`);
      await settle();
      if (conversations.submitted.length === hop) break;
    }
    expect(conversations.submitted.map((s) => `${s.sessionKey}#${s.provenance?.hop}`)).toEqual([
      "agent:main:peer#1",
      "agent:main:main#2",
      "agent:main:peer#3",
      "agent:main:main#4",
      "agent:main:peer#5",
      "agent:main:main#6",
    ]);
    expect(conversations.submitted[1]!.message).toMatch(/^\[Inter-session reply from agent:main:peer · reply 1 of 5 · isUser=false\]\nreply 1/);
  });

  it("REPLY_SKIP ends the exchange, and maxPingPongTurns 0 sends nothing back", async () => {
    const { a2a, conversations } = setup();
    await a2a.send(caller("agent:main:main"), { label: "peer", message: "ping" }, never);
    conversations.run(conversations.submitted[0]!.idempotencyKey).finish("ok", "REPLY_SKIP");
    await settle();
    expect(conversations.submitted).toHaveLength(1);

    const quiet = setup({ session: { agentToAgent: { maxPingPongTurns: 0 } } });
    await quiet.a2a.send(caller("agent:main:main"), { sessionKey: "peer", message: "ping" }, never);
    quiet.conversations.run(quiet.conversations.submitted[0]!.idempotencyKey).finish("ok", "pong");
    await settle();
    expect(quiet.conversations.submitted).toHaveLength(1);
  });

  it("didSendViaMessagingTool: a turn that answered with sessions_send itself does not have its final text sent again", async () => {
    const { a2a, conversations } = setup();
    await a2a.send(caller("agent:main:main"), { sessionKey: "agent:main:peer", message: "ping" }, never);
    // The peer's turn (still running) answers with the tool instead of its final text.
    const reply = await a2a.send(caller("agent:main:peer"), { sessionKey: "agent:main:main", message: "explicit answer" }, never);
    expect(reply).toMatchObject({ status: "accepted" });
    expect(conversations.submitted[1]!.provenance).toMatchObject({ hop: 2, exchangeId: conversations.submitted[0]!.provenance?.exchangeId });
    conversations.run(conversations.submitted[0]!.idempotencyKey).finish("ok", "final text");
    await settle();
    expect(conversations.submitted.map((s) => s.message.split("\n")[1])).toEqual(["ping", "explicit answer"]);
  });

  it("a chain of inter-session messages, through any sessions, is refused past its limit", async () => {
    const { a2a, conversations } = setup({ session: { agentToAgent: { maxPingPongTurns: 1 } }, tools: { sessions: { visibility: "agent" } } });
    await a2a.send(caller("agent:main:main"), { sessionKey: "agent:main:peer", message: "one" }, never);
    // The peer's turn sends on to a third session: hop 2 of at most 2.
    expect(await a2a.send(caller("agent:main:peer"), { sessionKey: "agent:main:third", message: "two" }, never)).toMatchObject({ status: "accepted" });
    // The third session's turn tries to go on: refused.
    const refused = await a2a.send(caller("agent:main:third"), { sessionKey: "agent:main:main", message: "three" }, never);
    expect(refused).toMatchObject({ status: "refused", code: "A2A_LIMIT" });
    expect(conversations.submitted).toHaveLength(2);
  });

  it("waits for the reply when asked, and sends nothing back to one's own sub-agent", async () => {
    const { a2a, conversations, ownChildren } = setup();
    const waiting = a2a.send(caller("agent:main:main"), { sessionKey: "agent:main:peer", message: "q", timeoutSeconds: 5 }, never);
    await settle();
    conversations.run(conversations.submitted[0]!.idempotencyKey).finish("ok", "a");
    expect(await waiting).toMatchObject({ status: "ok", reply: "a" });
    await settle();
    expect(conversations.submitted).toHaveLength(1);

    ownChildren.add("agent:main:third");
    const toChild = await a2a.send(caller("agent:main:main"), { sessionKey: "agent:main:third", message: "hi" }, never);
    expect(toChild).toMatchObject({ status: "accepted", note: expect.stringMatching(/your own sub-agent/) });
    conversations.run(conversations.submitted[1]!.idempotencyKey).finish("ok", "hello parent");
    await settle();
    expect(conversations.submitted).toHaveLength(2);
  });

  it("refuses itself, unknown sessions and an empty message", async () => {
    const { a2a } = setup();
    expect(await a2a.send(caller("agent:main:main"), { sessionKey: "main", message: "x" }, never)).toMatchObject({ code: "SEND_TO_SELF" });
    expect(await a2a.send(caller("agent:main:main"), { sessionKey: "ghost", message: "x" }, never)).toMatchObject({ code: "SESSION_NOT_FOUND" });
    expect(await a2a.send(caller("agent:main:main"), { sessionKey: "peer", message: " " }, never)).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(await a2a.send(caller("agent:main:main"), { message: "x" }, never)).toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
