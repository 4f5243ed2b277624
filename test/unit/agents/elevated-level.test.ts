import { describe, expect, it } from "vitest";
import { parseElevatedLevel, turnElevatedLevel } from "../../../src/agents/sandbox/elevated-level.js";

describe("elevated levels", () => {
  it("reads OpenClaw's spellings and nothing else", () => {
    expect(parseElevatedLevel("ON")).toBe("on");
    expect(parseElevatedLevel("yes")).toBe("on");
    expect(parseElevatedLevel("no")).toBe("off");
    expect(parseElevatedLevel("approve")).toBe("ask");
    expect(parseElevatedLevel("auto")).toBe("full");
    expect(parseElevatedLevel("sideways")).toBeUndefined();
  });

  it("a turn is off without a grant; with one: the message's level, the session's, the configured default, then on", () => {
    expect(turnElevatedLevel(undefined, "full", "full")).toBe("off");
    expect(turnElevatedLevel({ level: "ask" }, "off", "full")).toBe("ask");
    expect(turnElevatedLevel({}, "off", "full")).toBe("off");
    expect(turnElevatedLevel({}, undefined, "full")).toBe("full");
    expect(turnElevatedLevel({}, undefined, undefined)).toBe("on");
    // A stored level that is no level (an older or hand-edited row) falls through to the default.
    expect(turnElevatedLevel({}, "bogus", "off")).toBe("off");
  });
});
