import { describe, expect, it } from "vitest";
import { decodeKeys, KeyReader } from "../../../../src/cli/tui/keys.js";
import { renderRows } from "../../../../src/cli/tui/screen.js";
import { inertText, localeIsUtf8, textWidth, wrapText } from "../../../../src/cli/tui/terminal-text.js";

describe("inertText", () => {
  it("shows every control character visibly: ESC, BEL, CR, DEL and C1", () => {
    expect(inertText("a\x1b[31mred\x1b[0m", true)).toBe("a^[[31mred^[[0m");
    expect(inertText("\x1b]0;title\x07", true)).toBe("^[]0;title^G");
    expect(inertText("over\rwrite\x7f", true)).toBe("over^Mwrite^?");
    expect(inertText("\u009b31m", true)).toBe("<U+009B>31m");
  });

  it("keeps newlines, turns tabs into spaces", () => {
    expect(inertText("a\tb\nc", true)).toBe("a  b\nc");
  });

  it("without a UTF-8 locale, non-ASCII becomes ?", () => {
    expect(inertText("caf\u00e9 \u{1f99e}", false)).toBe("caf? ?");
    expect(inertText("caf\u00e9", true)).toBe("caf\u00e9");
  });

  it("reads the locale as the C library does", () => {
    expect(localeIsUtf8({ LANG: "en_US.UTF-8" })).toBe(true);
    expect(localeIsUtf8({ LC_ALL: "C", LANG: "en_US.UTF-8" })).toBe(false);
    expect(localeIsUtf8({ LC_CTYPE: "C.utf8" })).toBe(true);
    expect(localeIsUtf8({})).toBe(false);
  });
});

describe("wrapText", () => {
  it("breaks at spaces, cuts a word longer than the line, keeps blank lines", () => {
    expect(wrapText("one two three", 7)).toEqual(["one two", "three"]);
    expect(wrapText("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
    expect(wrapText("a\n\nb", 10)).toEqual(["a", "", "b"]);
  });

  it("counts wide characters as two columns", () => {
    expect(textWidth("\u{1f99e}x")).toBe(3);
    expect(wrapText("\u4f60\u597d\u4e16\u754c", 5)).toEqual(["\u4f60\u597d", "\u4e16\u754c"]);
  });
});

describe("renderRows", () => {
  const view = {
    header: "openclaw tui | ws://h:1 | agent main | session agent:main:main",
    entries: [
      { kind: "user" as const, text: "hello" },
      { kind: "assistant" as const, text: "a reply that is long enough to wrap" },
      { kind: "tool" as const, text: "exec {}" },
    ],
    status: "connected | idle",
    footer: "agent main | session agent:main:main",
    input: "typing",
  };

  it("header, log, status, footer and input, each row within the width; the log's newest lines at the bottom", () => {
    const rows = renderRows(view, 20, 12, true);
    expect(rows).toHaveLength(12);
    expect(rows.every((row) => textWidth(row) <= 20)).toBe(true);
    expect(rows[0]).toBe("openclaw tui | ws://");
    expect(rows.slice(1, 9)).toEqual(["-".repeat(20), "you> hello", "", "a reply that is long", "enough to wrap", "", "  tool exec {}", "-".repeat(20)]);
    expect(rows.at(-3)).toBe("connected | idle");
    expect(rows.at(-1)).toBe("> typing");
  });

  it("a short screen shows the newest lines only", () => {
    const rows = renderRows(view, 40, 8, true);
    expect(rows.slice(2, 4)).toEqual(["", "  tool exec {}"]);
  });
});

describe("decodeKeys", () => {
  it("text, Enter, Backspace, Ctrl+C, Ctrl+D, Ctrl+J", () => {
    expect(decodeKeys("hi\r")).toEqual([{ name: "text", text: "hi" }, { name: "enter" }]);
    expect(decodeKeys("\x7f\x03\x04\n")).toEqual([{ name: "backspace" }, { name: "ctrl-c" }, { name: "ctrl-d" }, { name: "ctrl-j" }]);
  });

  it("a lone ESC is the Esc key; an escape sequence (an arrow) is not", () => {
    expect(decodeKeys("\x1b")).toEqual([{ name: "escape" }]);
    expect(decodeKeys("\x1b[C")).toEqual([{ name: "ignored" }]);
    expect(decodeKeys("a\x1b[1;5Cb")).toEqual([{ name: "text", text: "a" }, { name: "ignored" }, { name: "text", text: "b" }]);
  });

  it("Up and Down are keys of their own (CSI and SS3 forms); a modified arrow is ignored", () => {
    expect(decodeKeys("\x1b[A\x1b[B")).toEqual([{ name: "up" }, { name: "down" }]);
    expect(decodeKeys("\x1bOA\x1bOB")).toEqual([{ name: "up" }, { name: "down" }]);
    expect(decodeKeys("\x1b[1;5A")).toEqual([{ name: "ignored" }]);
  });

  it("the pickers' keys are reported as not supported", () => {
    expect(decodeKeys("\x0c")).toEqual([{ name: "unsupported", label: "Ctrl+L (model picker)" }]);
    expect(decodeKeys("\x10")[0]).toMatchObject({ name: "unsupported" });
  });
});

describe("KeyReader", () => {
  it("a bracketed paste is one key with its newlines, also across reads; keys around it are keys", () => {
    const reader = new KeyReader();
    expect(reader.read("a\x1b[200~line one\r\nline")).toEqual([{ name: "text", text: "a" }]);
    expect(reader.read(" two\ttab\x1b\x07\x1b[201~\r")).toEqual([{ name: "paste", text: "line one\nline two tab" }, { name: "enter" }]);
    expect(reader.read("\x1b")).toEqual([{ name: "escape" }]);
  });
});
