import { describe, expect, it } from "vitest";
import { chunkByParagraph } from "../../../../src/channels/outbound/paragraph-chunks.js";

describe("chunkByParagraph (streaming.chunkMode: newline)", () => {
  it("packs whole paragraphs up to the limit and splits only between them", () => {
    const text = ["First paragraph here.", "Second one, a bit longer than the first.", "Third."].join("\n\n");
    expect(chunkByParagraph(text, { maxChars: 70 })).toEqual(["First paragraph here.\n\nSecond one, a bit longer than the first.", "Third."]);
  });

  it("keeps lines of one paragraph together, where length chunking would cut at a line", () => {
    const paragraph = "line one\nline two\nline three";
    const text = `${"a".repeat(30)}\n\n${paragraph}`;
    expect(chunkByParagraph(text, { maxChars: 40 })).toEqual(["a".repeat(30), paragraph]);
  });

  it("does not split at a blank line inside a code block", () => {
    const text = "Intro.\n\n```\ncode\n\nmore code\n```";
    expect(chunkByParagraph(text, { maxChars: 30 })).toEqual(["Intro.", "```\ncode\n\nmore code\n```"]);
  });

  it("cuts a paragraph longer than the limit by length", () => {
    const chunks = chunkByParagraph(`Short.\n\n${"word ".repeat(20).trim()}`, { maxChars: 30 });
    expect(chunks[0]).toBe("Short.");
    expect(chunks.slice(1).every((c) => c.length <= 30)).toBe(true);
    expect(chunks.length).toBeGreaterThan(2);
  });

  it("counts maxLines too", () => {
    expect(chunkByParagraph("a\nb\n\nc\nd", { maxChars: 100, maxLines: 3 })).toEqual(["a\nb", "c\nd"]);
  });
});
