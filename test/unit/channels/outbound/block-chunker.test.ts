import { describe, expect, it } from "vitest";
import { BlockChunker, type BlockChunking } from "../../../../src/channels/outbound/block-chunker.js";

const chunking = (over: Partial<BlockChunking> = {}): BlockChunking => ({ minChars: 20, maxChars: 60, breakPreference: "paragraph", flushOnParagraph: false, ...over });

/** Feed `text` a few characters at a time, as a model streams it; every block cut on the way, then the flush. */
function stream(chunker: BlockChunker, text: string, step = 3): { blocks: string[]; flushed: string[] } {
  const blocks: string[] = [];
  for (let i = 0; i < text.length; i += step) blocks.push(...chunker.push(text.slice(i, i + step)));
  return { blocks, flushed: chunker.flush() };
}

describe("BlockChunker", () => {
  it("holds text below minChars and cuts at a paragraph break past it, once the blank line arrived", () => {
    const chunker = new BlockChunker(chunking());
    expect(chunker.push("Short para.\n\n")).toEqual([]);
    expect(chunker.push("Second paragraph is here.\n")).toEqual([]);
    expect(chunker.push("\nThird")).toEqual(["Short para.\n\nSecond paragraph is here."]);
    expect(chunker.flush()).toEqual(["Third"]);
  });

  it("prefers a paragraph break over a later line break or sentence end", () => {
    const text = "First paragraph, long enough.\n\nSecond line one.\nSecond line two. And more words here";
    const { blocks, flushed } = stream(new BlockChunker(chunking()), text);
    expect(blocks[0]).toBe("First paragraph, long enough.");
    expect([...blocks.slice(1), ...flushed].join(" ")).toContain("Second line one.");
  });

  it("falls back to a sentence end when the text has no line break within maxChars", () => {
    const text = "One sentence that runs on. Another sentence follows it here. And a third one keeps going on";
    const { blocks } = stream(new BlockChunker(chunking({ maxChars: 70 })), text);
    expect(blocks[0]).toBe("One sentence that runs on. Another sentence follows it here.");
  });

  it("never cuts inside a code block while it is open, and closes and reopens one longer than maxChars", () => {
    const code = Array.from({ length: 12 }, (_, i) => `line ${i} of code`).join("\n");
    const text = `Intro text that is long enough.\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAfter.`;
    const { blocks, flushed } = stream(new BlockChunker(chunking({ maxChars: 80 })), text);
    const all = [...blocks, ...flushed];
    expect(all[0]).toBe("Intro text that is long enough.");
    for (const block of all.slice(1, -1)) {
      expect(block.startsWith("```ts\n")).toBe(true);
      expect(block.endsWith("\n```")).toBe(true);
    }
    for (const block of all) expect(block.length).toBeLessThanOrEqual(80);
    expect(all.join("\n")).toContain("line 11 of code");
  });

  it("cuts text without any break at maxChars and keeps the rest", () => {
    const text = "x".repeat(150);
    const { blocks, flushed } = stream(new BlockChunker(chunking()), text, 10);
    const all = [...blocks, ...flushed];
    expect(all.every((b) => b.length <= 60)).toBe(true);
    expect(all.join("")).toBe(text);
  });

  it("keeps the space between two pieces of a word split across pushes", () => {
    const chunker = new BlockChunker(chunking({ minChars: 1000, maxChars: 2000 }));
    chunker.push("Hello ");
    chunker.push("world");
    expect(chunker.flush()).toEqual(["Hello world"]);
  });

  it("chunkMode newline: every paragraph break ends a block, however short", () => {
    const { blocks, flushed } = stream(new BlockChunker(chunking({ minChars: 500, maxChars: 1000, flushOnParagraph: true })), "Hi.\n\nA second one.\n\nLast", 2);
    expect(blocks).toEqual(["Hi.", "A second one."]);
    expect(flushed).toEqual(["Last"]);
  });

  it("only buffers when told not to cut, and discard forgets", () => {
    const chunker = new BlockChunker(chunking({ minChars: 1 }));
    expect(chunker.push("A paragraph.\n\nAnother.\n\n", false)).toEqual([]);
    chunker.discard();
    expect(chunker.flush()).toEqual([]);
  });
});
