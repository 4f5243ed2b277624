import { describe, expect, it } from "vitest";
import { splitLeadingBar } from "../../../ui/src/views/progress-card-bar.js";

describe("splitLeadingBar", () => {
  it("reads OpenClaw's leading bar as a label and two numbers and leaves the rest as Markdown", () => {
    expect(splitLeadingBar('<progress aria-label="PRs reviewed · 12/30" value="12" max="30"></progress>\n\nTwo closed.')).toEqual({
      bar: { label: "PRs reviewed · 12/30", value: 12, max: 30 },
      rest: "Two closed.",
    });
  });

  it("keeps a note without a valid leading bar whole, as text for the Markdown renderer", () => {
    for (const note of [
      'Done.\n<progress value="1" max="2"></progress>',
      '<progress value="x" max="2"></progress> bad value',
      '<progress value="1" max="0"></progress> no max',
      '<progress value="1" max="2" onclick="evil()"><img></progress>',
    ]) {
      expect(splitLeadingBar(note)).toEqual({ rest: note });
    }
  });

  it("keeps the value within the bar", () => {
    expect(splitLeadingBar('<progress aria-label="x" value="9" max="3"></progress>').bar).toEqual({ label: "x", value: 3, max: 3 });
  });
});
