import { describe, expect, it } from "vitest";
import { OutputBuffer } from "../../../src/agents/tools/output-buffer.js";
import { truncateToolResult, truncateToolText } from "../../../src/agents/tools/truncate-output.js";

describe("truncateToolText", () => {
  it("returns short text unchanged", () => {
    expect(truncateToolText("short", 10)).toBe("short");
  });

  it("keeps the head only when the tail is unremarkable", () => {
    const text = `${"a".repeat(500)}${"b".repeat(500)}`;
    expect(truncateToolText(text, 100)).toBe(`${"a".repeat(100)}\n[… 900 chars truncated …]\n`);
  });

  it("keeps head and tail when the tail holds an error", () => {
    const text = `start\n${"noise\n".repeat(500)}Traceback (most recent call last):\n  File "x.py"\nValueError: boom`;
    const cut = truncateToolText(text, 300);
    expect(cut.startsWith("start\nnoise")).toBe(true);
    expect(cut.endsWith("ValueError: boom")).toBe(true);
    expect(cut).toMatch(/\n\[… \d+ chars truncated …\]\n/);
    expect(cut.length).toBeLessThan(340);
  });

  it("keeps the tail when the text ends like JSON", () => {
    const json = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i })) });
    const cut = truncateToolText(json, 200);
    expect(cut.startsWith('{"items":[{"id":0}')).toBe(true);
    expect(cut.endsWith("]}")).toBe(true);
  });

  it("never splits a surrogate pair", () => {
    const cut = truncateToolText(`${"a".repeat(9)}😀${"b".repeat(50)}`, 10);
    expect(cut.startsWith(`${"a".repeat(9)}\n`)).toBe(true);
  });

  it("truncateToolResult shortens text blocks and leaves images alone", () => {
    const image = { type: "image" as const, data: "x".repeat(1000), mimeType: "image/png" };
    const result = truncateToolResult({ content: [{ type: "text", text: "y".repeat(1000) }, image] }, 100);
    expect(result.content[0]).toEqual({ type: "text", text: `${"y".repeat(100)}\n[… 900 chars truncated …]\n` });
    expect(result.content[1]).toBe(image);
  });
});

describe("OutputBuffer", () => {
  it("keeps the head and a rolling tail, and resumes reads by absolute offset", () => {
    const buffer = new OutputBuffer(20);
    buffer.append("0123456789");
    const first = buffer.readFrom(0);
    expect(first).toEqual({ text: "0123456789", nextOffset: 10, droppedChars: 0 });
    for (let i = 0; i < 10; i++) buffer.append("abcdefghij");
    expect(buffer.totalChars).toBe(110);
    expect(buffer.droppedChars).toBe(90);
    expect(buffer.text()).toBe("0123456789\n[… 90 chars truncated …]\nabcdefghij");
    expect(buffer.readFrom(first.nextOffset)).toEqual({ text: "\n[… 90 chars truncated …]\nabcdefghij", nextOffset: 110, droppedChars: 90 });
    buffer.append("XY");
    expect(buffer.readFrom(110).text).toBe("XY");
  });
});
