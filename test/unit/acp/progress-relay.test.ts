import { describe, expect, it } from "vitest";
import { DEFAULT_TAG_VISIBILITY } from "../../../src/acp/config.js";
import { ProgressRelay } from "../../../src/acp/spawn/progress-relay.js";

function relay(overrides: Partial<{ maxChunkChars: number; tagVisibility: Record<string, boolean>; repeatSuppression: boolean }> = {}) {
  const sent: string[] = [];
  const r = new ProgressRelay(
    {
      coalesceIdleMs: 3_600_000,
      maxChunkChars: overrides.maxChunkChars ?? 800,
      tagVisibility: { ...DEFAULT_TAG_VISIBILITY, ...overrides.tagVisibility },
      repeatSuppression: overrides.repeatSuppression ?? true,
    },
    async (t) => void sent.push(t),
  );
  return { r, sent };
}

describe("ProgressRelay", () => {
  it("gathers the agent's words and tool titles into one message; thoughts and plans stay hidden by default", async () => {
    const { r, sent } = relay();
    r.push({ type: "text_delta", text: "Let me think.", stream: "thought", tag: "agent_thought_chunk" });
    r.push({ type: "status", text: "[pending] step", tag: "plan" });
    r.push({ type: "tool_call", text: "Edit a.ts", title: "Edit a.ts", toolCallId: "1", status: "pending", tag: "tool_call" });
    r.push({ type: "tool_call", text: "Edit a.ts", title: "Edit a.ts", toolCallId: "1", status: "pending", tag: "tool_call" });
    r.push({ type: "text_delta", text: "Editing ", stream: "output", tag: "agent_message_chunk" });
    r.push({ type: "text_delta", text: "now.", stream: "output", tag: "agent_message_chunk" });
    expect(sent).toEqual([]);
    await r.flush();
    expect(sent).toEqual(["[tool] Edit a.ts\nEditing now."]);
    await r.flush();
    expect(sent).toHaveLength(1);
  });

  it("shows a tag tagVisibility turns on, and cuts a long message", async () => {
    const { r, sent } = relay({ maxChunkChars: 60, tagVisibility: { plan: true } });
    r.push({ type: "status", text: "[in_progress] Read the file", tag: "plan" });
    r.push({ type: "text_delta", text: "x".repeat(200), stream: "output", tag: "agent_message_chunk" });
    await r.flush();
    expect(sent[0]!.startsWith("[plan] [in_progress] Read the file")).toBe(true);
    expect(sent[0]).toHaveLength(60);
    expect(sent[0]!.endsWith("…")).toBe(true);
  });

  it("relays a status line once per text with repeatSuppression, and every repeat without it", async () => {
    const plan = { type: "status", text: "[in_progress] Read the file", tag: "plan" } as const;
    const tool = { type: "tool_call", text: "Run tests", title: "Run tests", toolCallId: "7", status: "in_progress", tag: "tool_call" } as const;
    const suppressed = relay({ tagVisibility: { plan: true } });
    for (const event of [plan, tool, plan, tool]) suppressed.r.push(event);
    await suppressed.r.flush();
    expect(suppressed.sent).toEqual(["[plan] [in_progress] Read the file\n\n[tool] Run tests (in_progress)"]);
    const every = relay({ tagVisibility: { plan: true }, repeatSuppression: false });
    for (const event of [plan, tool, plan, tool]) every.r.push(event);
    await every.r.flush();
    expect(every.sent[0]!.match(/Read the file/g)).toHaveLength(2);
    expect(every.sent[0]!.match(/\[tool\] Run tests/g)).toHaveLength(2);
  });
});
