import { describe, expect, it } from "vitest";
import { AUTO_TTS_MAX_CHARS, spokenReplyText } from "../../../src/agents/speech/index.js";

describe("which replies Auto-TTS speaks", () => {
  it("speaks a plain reply as written, trimmed", () => {
    expect(spokenReplyText("  The weather is fine today.  ", 4096)).toEqual({ speak: "The weather is fine today.", truncated: false });
  });

  it("skips a reply under 10 characters", () => {
    expect(spokenReplyText("Ok, done.", 4096)).toEqual({ skip: "shorter than 10 characters" });
    expect(spokenReplyText("Ok, done!!", 4096)).toEqual({ speak: "Ok, done!!", truncated: false });
  });

  it("skips a reply that is mostly fenced code, closed or not", () => {
    const code = "```ts\nconst answer = computeTheAnswer(42);\nconsole.log(answer);\n```";
    expect(spokenReplyText(`Here:\n${code}`, 4096)).toEqual({ skip: "mostly fenced code" });
    expect(spokenReplyText("Try:\n~~~\nrm -rf build && npm run build && npm test\n", 4096)).toEqual({ skip: "mostly fenced code" });
  });

  it("speaks the prose around a short code block, without the block; inline code stays", () => {
    const reply = "Run the build first, then the tests; `npm test` runs all of them and reports failures at the end.\n```\nnpm test\n```\nThat is all.";
    expect(spokenReplyText(reply, 4096)).toEqual({
      speak: "Run the build first, then the tests; `npm test` runs all of them and reports failures at the end.\n\nThat is all.",
      truncated: false,
    });
  });

  it("cuts a long reply at a word to the limit with an ellipsis, never over 1500 characters", () => {
    const long = "word ".repeat(1000).trim();
    const spoken = spokenReplyText(long, 4096);
    expect(spoken).toMatchObject({ truncated: true });
    const text = (spoken as { speak: string }).speak;
    expect(text.length).toBeLessThanOrEqual(AUTO_TTS_MAX_CHARS);
    expect(text).toMatch(/^word( word)*…$/);
    const short = spokenReplyText(long, 100) as { speak: string };
    expect(short.speak.length).toBeLessThanOrEqual(100);
    expect(short.speak.endsWith("word…")).toBe(true);
  });

  it("does not split a surrogate pair when the cut falls inside one", () => {
    const spoken = spokenReplyText("😀".repeat(60), 22) as { speak: string };
    expect(spoken.speak).toBe(`${"😀".repeat(10)}…`);
  });
});
