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

function built(history: object[]): BuiltTrace {
  return {
    record: {} as BuiltTrace["record"],
    systemPrompt: { hash: "prompt-1", text: `You are helpful. Key ${SECRET}` },
    history: history as BuiltTrace["history"],
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
