import { describe, expect, it } from "vitest";
import { candidateLine, resolveResumeQuery, resumeChoices, type ResumeSessionRow } from "../../../../src/cli/resume/session-match.js";

const NOW = Date.UTC(2026, 0, 10, 12);
const rows: ResumeSessionRow[] = [
  { key: "agent:main:main", sessionId: "s-1", updatedAt: NOW - 30_000, derivedTitle: "weekly planning", lastMessagePreview: "sure,\n  here is the plan" },
  { key: "agent:main:bugfix", sessionId: "s-2", updatedAt: NOW - 3 * 3_600_000, label: "login crash" },
  { key: "agent:main:bugfix-2", sessionId: "s-3", updatedAt: NOW - 2 * 86_400_000, displayName: "Release notes" },
  { key: "agent:work:main", sessionId: "s-4", label: "quarterly report" },
];
const choices = resumeChoices(rows, NOW);
const keysOf = (resolution: ReturnType<typeof resolveResumeQuery>) =>
  resolution.kind === "match" ? [resolution.choice.key] : resolution.kind === "ambiguous" ? resolution.candidates.map((c) => c.key) : [];

describe("resume choices", () => {
  it("title the session by its derived title or display name with the short key, and describe when and what", () => {
    expect(choices.map((c) => c.title)).toEqual(["weekly planning (main)", "bugfix", "Release notes (bugfix-2)", "main"]);
    expect(choices[0].detail).toBe("just now · sure, here is the plan");
    expect(choices[1].detail).toBe("3h ago");
    expect(choices[2].detail).toBe("2d ago");
    expect(candidateLine(choices[2])).toBe("Release notes (bugfix-2) [agent:main:bugfix-2]");
  });
});

describe("resolving a resume query", () => {
  it("an exact key wins over its substring matches", () => {
    expect(resolveResumeQuery(choices, "agent:main:bugfix")).toEqual({ kind: "match", choice: choices[1] });
  });

  it("a unique substring of a key, display name or label (any case) matches", () => {
    expect(keysOf(resolveResumeQuery(choices, "LOGIN"))).toEqual(["agent:main:bugfix"]);
    expect(keysOf(resolveResumeQuery(choices, "release"))).toEqual(["agent:main:bugfix-2"]);
    expect(keysOf(resolveResumeQuery(choices, "agent:work"))).toEqual(["agent:work:main"]);
    expect(keysOf(resolveResumeQuery(choices, "  s-4 "))).toEqual(["agent:work:main"]);
  });

  it("several substring matches are ambiguous, listed in order", () => {
    const resolution = resolveResumeQuery(choices, "bugfix");
    expect(resolution.kind).toBe("ambiguous");
    expect(keysOf(resolution)).toEqual(["agent:main:bugfix", "agent:main:bugfix-2"]);
  });

  it("with no substring match, a fuzzy match (each word's characters in order) is used, best first", () => {
    expect(keysOf(resolveResumeQuery(choices, "qrtly"))).toEqual(["agent:work:main"]);
    expect(keysOf(resolveResumeQuery(choices, "wkly plan"))).toEqual(["agent:main:main"]);
    const both = resolveResumeQuery(choices, "lgn crsh/bgfx");
    expect(keysOf(both)).toEqual(["agent:main:bugfix"]);
  });

  it("nothing matching is none", () => {
    expect(resolveResumeQuery(choices, "zebra").kind).toBe("none");
    expect(resolveResumeQuery([], "main").kind).toBe("none");
  });
});
