import { describe, expect, it } from "vitest";
import { splitPlain } from "../../../../src/channels/outbound/split-plain.js";
import { chunkText } from "../../../../src/channels/outbound/chunk-text.js";

const lineCount = (chunk: string) => chunk.split("\n").length;
const withoutWhitespace = (text: string) => text.replace(/\s+/g, "");
/** Every ``` line toggles a fence: a chunk that renders correctly has an even number of them. */
const fenceLines = (chunk: string) => chunk.split("\n").filter((line) => /^\s{0,3}```/.test(line));

function expectWithinLimits(chunks: string[], maxChars: number, maxLines = Infinity): void {
  for (const chunk of chunks) {
    expect(chunk.length).toBeLessThanOrEqual(maxChars);
    expect(lineCount(chunk)).toBeLessThanOrEqual(maxLines);
    expect(chunk).toBe(chunk.replace(/^\s*\n/, "").trimEnd());
  }
}

/** Sentences of varied length in paragraphs of varied size, so every break kind occurs. */
function prose(chars: number): string {
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"];
  let out = "";
  let sentence = 0;
  while (out.length < chars) {
    const length = 4 + ((sentence * 7) % 13);
    const text = Array.from({ length }, (_, i) => words[(sentence + i * 3) % words.length]).join(" ");
    out += text[0]!.toUpperCase() + text.slice(1) + (sentence % 5 === 4 ? "!" : ".");
    out += sentence % 6 === 5 ? "\n\n" : sentence % 3 === 2 ? "\n" : " ";
    sentence += 1;
  }
  return out.trimEnd();
}

describe("chunkText", () => {
  it("returns [] for empty or blank input and short text unchanged", () => {
    expect(chunkText("", { maxChars: 10 })).toEqual([]);
    expect(chunkText(" \n\n \t", { maxChars: 10 })).toEqual([]);
    const short = "  **hi**\n\n- a\n- b\n";
    expect(chunkText(short, { maxChars: 4000 })).toEqual([short]);
  });

  it("splits 9 000 characters into chunks of at most 4 000 that join back to the original", () => {
    const text = prose(9_000);
    const chunks = chunkText(text, { maxChars: 4_000 });
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expectWithinLimits(chunks, 4_000);
    expect(withoutWhitespace(chunks.join(""))).toBe(withoutWhitespace(text));
  });

  it("prefers a paragraph break, then a line break, then a sentence end, then a space", () => {
    const paragraph = "First paragraph line one.\nline two.\n\nSecond paragraph starts here and goes on.";
    expect(chunkText(paragraph, { maxChars: 60 })[0]).toBe("First paragraph line one.\nline two.");
    const lines = "One line that is fairly long, even longer.\nAnother line. It keeps going on and on.";
    expect(chunkText(lines, { maxChars: 60 })[0]).toBe("One line that is fairly long, even longer.");
    const sentences = "This is one sentence. This is another one that is longer than the limit";
    expect(chunkText(sentences, { maxChars: 40 })[0]).toBe("This is one sentence.");
    const words = "word ".repeat(20).trim();
    const chunks = chunkText(words, { maxChars: 22 });
    expect(chunks[0]).toBe("word word word word");
    expect(chunks.every((chunk) => /^(word ?)+$/.test(chunk) && !chunk.endsWith(" "))).toBe(true);
  });

  it("does not take a preferred break that would leave the chunk mostly empty", () => {
    const text = "Short intro.\n\n" + "This long paragraph has many words and no other blank line in it at all, really.";
    const [first] = chunkText(text, { maxChars: 70 });
    expect(first!.startsWith("Short intro.\n\nThis long paragraph")).toBe(true);
  });

  it("splits a code block longer than the limit into valid fenced chunks", () => {
    const code = Array.from({ length: 60 }, (_, i) => `  const value${i} = compute(${i}); // step ${i}`);
    const text = `Here is the file:\n\n\`\`\`ts\n${code.join("\n")}\n\`\`\`\n\nThat is all.`;
    const chunks = chunkText(text, { maxChars: 500 });
    expect(chunks.length).toBeGreaterThan(3);
    expectWithinLimits(chunks, 500);
    for (const chunk of chunks) expect(fenceLines(chunk).length % 2).toBe(0);
    for (const chunk of chunks.slice(1, -1)) {
      expect(chunk.startsWith("```ts\n")).toBe(true);
      expect(chunk.endsWith("\n```")).toBe(true);
    }
    // The code lines come back intact and in order, indentation included.
    const codeBack = chunks
      .join("\n")
      .split("\n")
      .filter((line) => line.startsWith("  const"));
    expect(codeBack).toEqual(code);
    expect(chunks.at(-1)!.endsWith("That is all.")).toBe(true);
  });

  it("honours Discord's 2 000 characters and 17 lines, fence lines included", () => {
    const list = Array.from({ length: 50 }, (_, i) => `- item ${i}: ${"detail ".repeat(i % 4)}`.trimEnd()).join("\n");
    const code = `\`\`\`py\n${Array.from({ length: 30 }, (_, i) => `print(${i})`).join("\n")}\n\`\`\``;
    const text = `${list}\n\n${code}\n\nDone.`;
    const chunks = chunkText(text, { maxChars: 2_000, maxLines: 17 });
    expectWithinLimits(chunks, 2_000, 17);
    for (const chunk of chunks) expect(fenceLines(chunk).length % 2).toBe(0);
    const added =
      chunks
        .join("\n")
        .split("\n")
        .filter((line) => line.startsWith("```")).length - 2;
    expect(added % 2).toBe(0);
    expect(withoutWhitespace(chunks.join("").replaceAll("```py", "").replaceAll("```", ""))).toBe(withoutWhitespace(text.replaceAll("```py", "").replaceAll("```", "")));
  });

  it("hard-cuts a single 10 000-character word", () => {
    const word = "a".repeat(10_000);
    const chunks = chunkText(word, { maxChars: 4_000 });
    expect(chunks.map((c) => c.length)).toEqual([4_000, 4_000, 2_000]);
    expect(chunks.join("")).toBe(word);
  });

  it("never splits a surrogate pair at a hard cut", () => {
    const text = `ab${"😀".repeat(20)}`;
    for (const maxChars of [3, 4, 5, 7]) {
      const chunks = chunkText(text, { maxChars });
      expect(chunks.join("")).toBe(text);
      for (const chunk of chunks) {
        expect(chunk.length).toBeLessThanOrEqual(maxChars);
        expect(chunk.isWellFormed()).toBe(true);
      }
    }
  });

  it("throws a clear error when maxChars cannot hold a fence line plus one character", () => {
    const text = `\`\`\`typescript\n${"let x = 1;\n".repeat(10)}\`\`\``;
    expect(() => chunkText(text, { maxChars: 16 })).toThrow(/too small to split a code block.*"```typescript"/);
    expect(() => chunkText(text, { maxChars: 60, maxLines: 2 })).toThrow(/3 lines/);
    // Just enough room: the opening and closing fence lines plus one character of code.
    const tight = chunkText("```\nabcdef\n```", { maxChars: 9 });
    expect(tight.every((chunk) => chunk.length <= 9 && fenceLines(chunk).length === 2)).toBe(true);
    expect(tight.map((chunk) => chunk.split("\n")[1]).join("")).toBe("abcdef");
  });

  it("refuses limits that are not positive integers", () => {
    expect(() => chunkText("hi", { maxChars: 0 })).toThrow(/maxChars must be a positive integer/);
    expect(() => chunkText("hi", { maxChars: 10, maxLines: 1.5 })).toThrow(/maxLines must be a positive integer/);
  });

  it("reopens ~~~ fences and unclosed fences the same way", () => {
    const tilde = `~~~sh\n${"echo one two three\n".repeat(8)}~~~`;
    const chunks = chunkText(tilde, { maxChars: 60 });
    for (const chunk of chunks) {
      expect(chunk.startsWith("~~~sh\n")).toBe(true);
      expect(chunk.endsWith("\n~~~")).toBe(true);
    }
    const unclosed = `\`\`\`\n${"x = 1\n".repeat(20)}`;
    const parts = chunkText(unclosed, { maxChars: 40 });
    expectWithinLimits(parts, 40);
    expect(parts.slice(0, -1).every((chunk) => chunk.endsWith("\n```"))).toBe(true);
    expect(parts.every((chunk) => chunk.startsWith("```\n"))).toBe(true);
  });

  it("holds its invariants over 300 generated replies (seeded)", () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const pieces = ["Word", "word.", "ok!", "why?", "😀", "  ", "\n", "\n\n", "- item\n", "a".repeat(30)];
    const stripFences = (text: string) =>
      text
        .split("\n")
        .filter((line) => !/^```\w*\s*$/.test(line))
        .join("\n");
    for (let round = 0; round < 300; round += 1) {
      let text = "";
      const parts = 5 + random(60);
      for (let i = 0; i < parts; i += 1) {
        if (random(8) === 0) text += `\n\`\`\`${["", "ts", "python"][random(3)]}\n${"code line\n".repeat(random(12))}  indented();\n\`\`\`\n`;
        else text += pieces[random(pieces.length)] + (random(2) ? " " : "");
      }
      const maxChars = 20 + random(200);
      const maxLines = random(2) ? 3 + random(15) : undefined;
      const chunks = chunkText(text, { maxChars, maxLines });
      const broken = chunks.filter(
        (chunk) =>
          chunk.length > maxChars ||
          lineCount(chunk) > (maxLines ?? Infinity) ||
          fenceLines(chunk).length % 2 !== 0 ||
          chunk !== chunk.trimEnd() ||
          /^\s*\n/.test(chunk) ||
          !chunk.isWellFormed(),
      );
      expect(broken, `round ${round}`).toEqual([]);
      expect(withoutWhitespace(stripFences(chunks.join("\n")))).toBe(withoutWhitespace(stripFences(text)));
    }
  });

  it("keeps the indentation of the line after a cut", () => {
    const text = "Intro line that fills most of the room.\n    indented continuation";
    expect(chunkText(text, { maxChars: 45 })).toEqual(["Intro line that fills most of the room.", "    indented continuation"]);
  });
});

describe("splitPlain (the fallback when no cut keeps code blocks whole)", () => {
  it("keeps every piece within the limits and loses no text", () => {
    const text = ["```", "first();", ...Array.from({ length: 40 }, () => ""), `last(); ${"😀".repeat(30)}`, "```"].join("\n");
    const chunks = splitPlain(text, { maxChars: 25, maxLines: 17 });
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(25);
      expect(chunk.split("\n").length).toBeLessThanOrEqual(17);
      expect(chunk.trim()).not.toBe("");
    }
    expect(chunks.join("").replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
  });
});
