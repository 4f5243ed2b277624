import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentEvent } from "../../../../src/agents/types.js";
import { ProgressDraft, type ProgressDraftSettings } from "../../../../src/channels/outbound/progress-draft.js";
import { progressDraftSettings } from "../../../../src/channels/outbound/progress-draft-settings.js";
import type { ChannelAccount } from "../../../../src/channels/types.js";
import type { AssistantMessage } from "../../../../src/models/messages.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function chat() {
  const shown = new Map<string, string>();
  let next = 0;
  const account = {
    send: async (_t: unknown, text: { markdown: string }) => {
      const id = String(++next);
      shown.set(id, text.markdown);
      return { messageId: id };
    },
    editMessage: async (_t: unknown, id: string, text: { markdown: string }) => void shown.set(id, text.markdown),
    deleteMessage: async (_t: unknown, id: string) => void shown.delete(id),
  } as unknown as ChannelAccount;
  return { shown, account };
}

const settings = (over: Partial<ProgressDraftSettings> = {}): ProgressDraftSettings => ({
  initialDelayMs: 1500,
  throttleMs: 500,
  label: undefined,
  implicitLabel: "Working",
  maxLines: 8,
  maxLineChars: 120,
  toolProgress: false,
  commandText: "status",
  detail: "explain",
  ...over,
});

const preamble = (text: string): AgentEvent => ({
  type: "message_end",
  message: {
    role: "assistant",
    content: [
      { type: "text", text },
      { type: "toolCall", id: "t1", name: "exec", arguments: {} },
    ],
    timestamp: 0,
  } as AssistantMessage,
});
const toolStart = (toolName: string, args: Record<string, unknown> = {}): AgentEvent => ({ type: "tool_execution_start", toolCallId: "t1", toolName, args });

describe("ProgressDraft", () => {
  it("appears only once work has lasted the start delay, with the agent's words as its headline", async () => {
    const { shown, account } = chat();
    const draft = new ProgressDraft(account, { chatId: "1" }, settings());
    [preamble("Checking the logs now."), toolStart("exec")].forEach(draft.onEvent);
    await vi.advanceTimersByTimeAsync(1499);
    expect([...shown.values()]).toEqual([]);
    await vi.advanceTimersByTimeAsync(10);
    expect([...shown.values()]).toEqual(["Checking the logs now."]);
    await draft.finish(false);
    expect([...shown.values()]).toEqual([]);
  });

  it("a run that ends within the delay never posts one", async () => {
    const { shown, account } = chat();
    const draft = new ProgressDraft(account, { chatId: "1" }, settings());
    draft.onEvent(toolStart("read"));
    await vi.advanceTimersByTimeAsync(1000);
    await draft.finish(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(shown.size).toBe(0);
  });

  it("toolProgress: the label over a line per tool, the last maxLines of them, edited at most every throttleMs; a failed run keeps it", async () => {
    const { shown, account } = chat();
    const draft = new ProgressDraft(account, { chatId: "1" }, settings({ toolProgress: true, maxLines: 2 }));
    draft.onEvent(toolStart("read", { path: "a.md" }));
    await vi.advanceTimersByTimeAsync(1510);
    expect([...shown.values()]).toEqual(["Working\n• 📖 Read: a.md"]);
    draft.onEvent(toolStart("write", { path: "b.md" }));
    draft.onEvent(toolStart("web_search", { query: "node streams" }));
    await vi.advanceTimersByTimeAsync(400);
    expect([...shown.values()]).toEqual(["Working\n• 📖 Read: a.md"]);
    await vi.advanceTimersByTimeAsync(200);
    expect([...shown.values()]).toEqual(['Working\n• ✍️ Write: b.md\n• 🔎 Web Search: for "node streams"']);
    await draft.finish(true);
    expect(shown.size).toBe(1);
  });

  it("a stored progress_card shows its checklist under the headline (at most maxLines steps); a refused call keeps it, a note-only card shows readable text, a clear removes it", async () => {
    const { shown, account } = chat();
    const draft = new ProgressDraft(account, { chatId: "1" }, settings({ maxLines: 2, throttleMs: 0 }));
    const card = (id: string, args: Record<string, unknown>, isError = false) => {
      draft.onEvent({ type: "tool_execution_start", toolCallId: id, toolName: "progress_card", args });
      draft.onEvent({ type: "tool_execution_end", toolCallId: id, toolName: "progress_card", result: { content: [] }, isError });
    };
    draft.onEvent(preamble("Fixing the route."));
    card("c1", {
      plan: [
        { step: "Inspect", status: "completed" },
        { step: "Repair", status: "in_progress" },
        { step: "Verify", status: "pending" },
      ],
    });
    await vi.advanceTimersByTimeAsync(1510);
    const checklist = "Fixing the route.\nPlan 1/3\n✅ Inspect\n▶️ Repair\n… 1 more";
    expect([...shown.values()]).toEqual([checklist]);
    card("c2", { plan: [{ step: "a", status: "in_progress" }] }, true);
    await vi.advanceTimersByTimeAsync(10);
    expect([...shown.values()]).toEqual([checklist]);
    card("c3", { markdown: '<progress aria-label="PRs · 2/5" value="2" max="5"></progress>\n\n**Two** reviewed, see [PR](https://x.test/1).' });
    await vi.advanceTimersByTimeAsync(10);
    expect([...shown.values()]).toEqual(["Fixing the route.\nTwo reviewed, see PR."]);
    card("c4", { markdown: "<progress value='1' max='2'></progress>" });
    await vi.advanceTimersByTimeAsync(10);
    expect([...shown.values()]).toEqual(["Fixing the route.\nProgress updated"]);
    card("c5", {});
    await vi.advanceTimersByTimeAsync(10);
    expect([...shown.values()]).toEqual(["Fixing the route."]);
    await draft.finish(false);
  });

  it("a silent preamble is no headline; label false hides the title", async () => {
    const { shown, account } = chat();
    const draft = new ProgressDraft(account, { chatId: "1" }, settings({ toolProgress: true, label: false }));
    [preamble("NO_REPLY"), toolStart("exec", { command: "ls" })].forEach(draft.onEvent);
    await vi.advanceTimersByTimeAsync(1510);
    expect([...shown.values()]).toEqual(["• 💻 Exec"]);
  });
});

describe("progress draft settings", () => {
  it("label auto picks one of labels for the run, the same every time", () => {
    const streaming = { progress: { label: "auto" as const, labels: ["Checking", "Reading", "Testing"] } };
    const first = progressDraftSettings(streaming, "run-1", "explain");
    expect(["Checking", "Reading", "Testing"]).toContain(first.label);
    expect(progressDraftSettings(streaming, "run-1", "explain").label).toBe(first.label);
    expect(progressDraftSettings(undefined, "run-1", "raw")).toMatchObject({
      detail: "raw",
      label: undefined,
      implicitLabel: "Working",
      throttleMs: 1000,
      toolProgress: false,
      commandText: "status",
      maxLines: 8,
    });
  });
});
