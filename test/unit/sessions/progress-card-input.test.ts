import { describe, expect, it } from "vitest";
import { checkProgressCardInput, stripInvisibleText } from "../../../src/sessions/progress-card/index.js";

const steps = (n: number, status = "pending") => Array.from({ length: n }, (_, i) => ({ step: `step ${i + 1}`, status }));

describe("checkProgressCardInput", () => {
  it("keeps a plan and a note as written", () => {
    const plan = [
      { step: "Inspect the route", status: "completed" },
      { step: "Repair the owner", status: "in_progress" },
      { step: "Verify", status: "pending" },
    ];
    expect(checkProgressCardInput({ plan, markdown: "Isolated to ownership." })).toEqual({ ok: true, content: { steps: plan, markdown: "Isolated to ownership." } });
  });

  it("reads {}, an empty plan and a blank note as a clear", () => {
    expect(checkProgressCardInput({})).toEqual({ ok: true, content: {} });
    expect(checkProgressCardInput({ plan: [], markdown: " \n\t" })).toEqual({ ok: true, content: {} });
    // A note made only of invisible characters is blank too.
    expect(checkProgressCardInput({ markdown: "\u200b\u202e" })).toEqual({ ok: true, content: {} });
  });

  it("allows exactly 50 steps and 8,192 bytes of note, and names the rule one over breaks", () => {
    expect(checkProgressCardInput({ plan: steps(50) }).ok).toBe(true);
    expect(checkProgressCardInput({ plan: steps(51) })).toEqual({ ok: false, rule: "plan has 51 steps; at most 50 are allowed" });
    // Bytes, not characters: 2,731 three-byte characters are 8,193 bytes.
    expect(checkProgressCardInput({ markdown: "a".repeat(8_192) }).ok).toBe(true);
    expect(checkProgressCardInput({ markdown: "€".repeat(2_731) })).toEqual({ ok: false, rule: "markdown is over 8192 UTF-8 bytes" });
  });

  it("refuses a step over 512 bytes, an empty step, an unknown status and a second in_progress", () => {
    expect(checkProgressCardInput({ plan: [{ step: "é".repeat(257), status: "pending" }] })).toEqual({ ok: false, rule: "plan[0].step is over 512 UTF-8 bytes" });
    expect(checkProgressCardInput({ plan: [{ step: "x".repeat(512), status: "pending" }] }).ok).toBe(true);
    expect(
      checkProgressCardInput({
        plan: [
          { step: "ok", status: "pending" },
          { step: " \u200b ", status: "pending" },
        ],
      }),
    ).toEqual({
      ok: false,
      rule: "plan[1].step must not be empty",
    });
    expect(checkProgressCardInput({ plan: [{ step: "ok", status: "done" }] })).toEqual({ ok: false, rule: "plan[0].status must be one of pending, in_progress, completed" });
    expect(checkProgressCardInput({ plan: [...steps(1, "in_progress"), ...steps(2, "in_progress")] })).toEqual({
      ok: false,
      rule: "plan has 3 in_progress steps; at most one step may be in_progress",
    });
    expect(checkProgressCardInput({ plan: "do things" })).toEqual({ ok: false, rule: "plan must be an array of steps" });
    expect(checkProgressCardInput({ markdown: 42 })).toEqual({ ok: false, rule: "markdown must be a string" });
  });

  it("removes invisible and bidirectional control characters from the note and the steps before storing", () => {
    const checked = checkProgressCardInput({ markdown: "Deploy \u202Eevil\u202C done\u200B\uFEFF", plan: [{ step: "Ship\u2066 it\u2069\u{E0041}", status: "pending" }] });
    expect(checked).toEqual({ ok: true, content: { markdown: "Deploy evil done", steps: [{ step: "Ship it", status: "pending" }] } });
  });
});

describe("stripInvisibleText", () => {
  it("removes zero-width, bidi, invisible operator, BOM and tag characters and keeps visible text", () => {
    const invisible =
      "\u061C\u200B\u200C\u200D\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\u206A\u206F\uFEFF\u{E0001}\u{E007F}";
    expect(stripInvisibleText(`a${invisible}b`)).toBe("ab");
    expect(stripInvisibleText("Grüße · 12/30 ✅ <progress>")).toBe("Grüße · 12/30 ✅ <progress>");
  });
});
