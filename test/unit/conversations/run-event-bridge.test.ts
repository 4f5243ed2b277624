import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../../src/agents/types.js";
import { createRunEventBridge } from "../../../src/conversations/run-event-bridge.js";

const message = { role: "assistant", content: [], timestamp: 0 } as unknown as AssistantMessage;
const update = (text: string) => ({ type: "message_update" as const, message, delta: { kind: "text" as const, text } });
const result = { payloads: [{ text: "Hello there" }], usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop" as const };

function recordingSink(listening: () => boolean) {
  const agent: Record<string, unknown>[] = [];
  const chat: Record<string, unknown>[] = [];
  return { agent, chat, sink: { agent: (p: Record<string, unknown>) => void agent.push(p), chat: (p: Record<string, unknown>) => void chat.push(p), listening } };
}

describe("run events while no one listens", () => {
  it("are not built at all", () => {
    const { agent, chat, sink } = recordingSink(() => false);
    const bridge = createRunEventBridge({ runId: "r1", sessionKey: "agent:main:main", agentId: "main", sink, chatDeltaIntervalMs: 0 });
    bridge.onEvent({ type: "agent_start", runId: "r1", startedAt: 1 });
    bridge.onEvent(update("Hello"));
    bridge.onEvent(update(" there"));
    bridge.finish(result);
    expect(agent).toEqual([]);
    expect(chat).toEqual([]);
  });

  it("start with the reply's text so far for a listener who arrives mid-run, and end as usual", () => {
    let someone = false;
    const { agent, chat, sink } = recordingSink(() => someone);
    const bridge = createRunEventBridge({ runId: "r2", sessionKey: "agent:main:main", agentId: "main", sink, chatDeltaIntervalMs: 0 });
    bridge.onEvent({ type: "agent_start", runId: "r2", startedAt: 1 });
    bridge.onEvent(update("Hello"));
    someone = true;
    bridge.onEvent(update(" there"));
    bridge.finish(result);
    expect(chat.map((c) => c.state)).toEqual(["delta", "final"]);
    expect(chat[0]).toMatchObject({ deltaText: " there", message: { content: [{ type: "text", text: "Hello there" }] } });
    expect(agent.map((a) => [a.stream, (a.data as { phase?: string }).phase])).toEqual([
      ["assistant", undefined],
      ["lifecycle", "end"],
    ]);
    expect(agent[0]!.data).toMatchObject({ delta: " there", text: "Hello there" });
    // The run's start still counts though it was not built: no listener mistakes a later event for the first.
    expect(agent.map((a) => a.seq)).toEqual([2, 3]);
  });

  it("are built for a sink that does not say whether anyone listens", () => {
    const agent: Record<string, unknown>[] = [];
    const bridge = createRunEventBridge({
      runId: "r3",
      sessionKey: "agent:main:main",
      agentId: "main",
      sink: { agent: (p) => void agent.push(p), chat: () => {} },
      chatDeltaIntervalMs: 0,
    });
    bridge.onEvent({ type: "agent_start", runId: "r3", startedAt: 1 });
    bridge.finish(result);
    expect(agent.map((a) => (a.data as { phase?: string }).phase)).toEqual(["start", "end"]);
  });
});
