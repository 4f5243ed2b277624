import { describe, expect, it } from "vitest";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { ExportedContent } from "../../../src/traces/exported-content.js";
import { TraceRedactor } from "../../../src/traces/redaction.js";
import type { BuiltTrace } from "../../../src/traces/trace-builder.js";

const SECRET = "sk-live-abcdefghijklmnop1234";

/** A real redactor that counts the texts it was given. */
function countingRedactor(): { redactor: TraceRedactor; texts: string[] } {
  const redactor = new TraceRedactor(applyDefaults({} as OpenClawConfig), {});
  const texts: string[] = [];
  const text = redactor.text.bind(redactor);
  redactor.text = (value: string) => {
    texts.push(value);
    return text(value);
  };
  return { redactor, texts };
}

function built(history: object[], run: { replies?: (object | undefined)[]; runMessages?: object[] } = {}): BuiltTrace {
  return {
    record: {} as BuiltTrace["record"],
    systemPrompt: { hash: "prompt-1", text: `You are helpful. Key ${SECRET}` },
    history: history as BuiltTrace["history"],
    replies: (run.replies ?? []) as BuiltTrace["replies"],
    runMessages: (run.runMessages ?? []) as BuiltTrace["runMessages"],
  };
}

describe("ExportedContent", () => {
  it("gives the redacted system prompt and history, redacting each message and prompt once however many runs send them", () => {
    const content = new ExportedContent();
    const { redactor, texts } = countingRedactor();
    const first = { role: "user", content: `my key is ${SECRET}`, timestamp: 1 };
    const second = { role: "assistant", content: [{ type: "text", text: "noted" }], timestamp: 2 };

    const one = content.of(built([first]), redactor);
    expect(one.systemInstructions).toBe("You are helpful. Key [redacted]");
    expect(one.history).toEqual([{ role: "user", content: "my key is [redacted]", timestamp: 1 }]);
    const redactedOnce = texts.length;

    const two = content.of(built([first, second]), redactor);
    expect(two.history.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(two.history[0]).toBe(one.history[0]);
    // Only the new message was redacted: the first and the prompt came from the cache.
    expect(texts.slice(redactedOnce)).toEqual(["noted"]);
  });

  it("gives each model call what the run had appended before it and its reply, redacted; a reply the run did not keep has no input", () => {
    const content = new ExportedContent();
    const { redactor } = countingRedactor();
    const calling = { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "read", arguments: { key: SECRET } }], timestamp: 2 };
    const result = { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "found it" }], isError: false, timestamp: 3 };
    const answer = { role: "assistant", content: [{ type: "text", text: "done" }], timestamp: 4 };
    const overflowed = { role: "assistant", content: [], stopReason: "error", timestamp: 1 };
    const { calls } = content.of(built([], { replies: [overflowed, calling, answer, undefined], runMessages: [calling, result, answer] }), redactor);
    expect(calls).toHaveLength(4);
    expect(calls[0]).toEqual({ reply: { role: "assistant", content: [], stopReason: "error", timestamp: 1 } });
    expect(calls[1]!.before).toEqual([]);
    expect(JSON.stringify(calls[1]!.reply)).toContain('"key":"[redacted]"');
    expect(calls[2]!.before!.map((m) => m.role)).toEqual(["assistant", "toolResult"]);
    expect(calls[2]!.before![0]).toBe(calls[1]!.reply);
    expect(calls[2]!.reply).toEqual(answer);
    expect(calls[3]).toEqual({});
    expect(JSON.stringify(calls)).not.toContain(SECRET);
  });

  it("redacts again with a new redactor (the config changed)", () => {
    const content = new ExportedContent();
    const message = { role: "user", content: "hello", timestamp: 1 };
    content.of(built([message]), countingRedactor().redactor);
    const next = countingRedactor();
    content.of(built([message]), next.redactor);
    expect(next.texts).toContain("hello");
    expect(next.texts).toContain(`You are helpful. Key ${SECRET}`);
  });
});
