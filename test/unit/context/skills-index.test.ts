import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_SKILLS_IN_PROMPT, renderSkillsIndex, SKILLS_INSTRUCTION, skillUseWhen, type SkillIndexEntry } from "../../../src/agents/skills/skills-index.js";

const workspaceDir = "/home/u/ws";

function entries(count: number): SkillIndexEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `skill-${String(i).padStart(2, "0")}`,
    description: `Use when task number ${i} comes up. Long explanation that the index leaves out.`,
    filePath: i % 2 === 0 ? path.join(workspaceDir, "skills", `s${i}`, "SKILL.md") : `/opt/openclaw/skills/s${i}/SKILL.md`,
  }));
}

describe("renderSkillsIndex", () => {
  it("renders the instruction and one line per skill, in the given (precedence) order", () => {
    const rendered = renderSkillsIndex(entries(3), { workspaceDir });
    expect(rendered).toEqual({
      text: [
        SKILLS_INSTRUCTION,
        "- skill-00: Use when task number 0 comes up. → skills/s0/SKILL.md",
        "- skill-01: Use when task number 1 comes up. → /opt/openclaw/skills/s1/SKILL.md",
        "- skill-02: Use when task number 2 comes up. → skills/s2/SKILL.md",
      ].join("\n"),
      included: 3,
      omitted: 0,
    });
    expect(SKILLS_INSTRUCTION).toMatch(/`read` its SKILL\.md/);
  });

  it("drops the lowest-precedence skills to fit the budget and says how many", () => {
    const all = entries(20);
    const full = renderSkillsIndex(all, { workspaceDir });
    expect(full.included).toBe(20);
    const budget = Math.floor(full.text.length / 2);
    const cut = renderSkillsIndex(all, { workspaceDir, budgetChars: budget });
    expect(cut.text.length).toBeLessThanOrEqual(budget);
    expect(cut.included).toBeGreaterThan(0);
    expect(cut.included + cut.omitted).toBe(20);
    const lines = cut.text.split("\n");
    // The survivors are the first entries (highest precedence), then the note.
    expect(lines.slice(1, -1).map((line) => line.split(":")[0])).toEqual(all.slice(0, cut.included).map((e) => `- ${e.name}`));
    expect(lines.at(-1)).toBe(`(${cut.omitted} more skills were left out to fit the prompt budget.)`);
    // One more line (with the note then counting one fewer) would not have fitted.
    const fullLines = full.text.split("\n");
    const oneMore = [...fullLines.slice(0, cut.included + 2), `(${cut.omitted - 1} more skills were left out to fit the prompt budget.)`];
    expect(oneMore.join("\n").length).toBeGreaterThan(budget);
  });

  it("renders nothing when not even one skill fits, or when there are none", () => {
    expect(renderSkillsIndex(entries(5), { workspaceDir, budgetChars: 50 })).toEqual({ text: "", included: 0, omitted: 5 });
    expect(renderSkillsIndex([], { workspaceDir })).toEqual({ text: "", included: 0, omitted: 0 });
  });

  it("caps the count at MAX_SKILLS_IN_PROMPT and leaves out model-disabled skills", () => {
    const many = renderSkillsIndex(entries(MAX_SKILLS_IN_PROMPT + 5), { workspaceDir, budgetChars: 1_000_000 });
    expect([many.included, many.omitted]).toEqual([MAX_SKILLS_IN_PROMPT, 5]);
    const hidden = renderSkillsIndex([{ ...entries(1)[0]!, disableModelInvocation: true }], { workspaceDir });
    expect(hidden.text).toBe("");
  });
});

describe("skillUseWhen", () => {
  it("takes the first sentence on one line", () => {
    expect(skillUseWhen("Use when X.\nDo not use for Y.")).toBe("Use when X.");
    expect(skillUseWhen("Use when   the v1.2 release\nships")).toBe("Use when the v1.2 release ships");
    expect(skillUseWhen("a".repeat(500)).length).toBe(200);
  });
});
