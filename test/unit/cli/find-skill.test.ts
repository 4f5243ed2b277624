import { describe, expect, it } from "vitest";
import type { SkillStatusEntry } from "../../../src/agents/skills/skill-status.js";
import { findSkill } from "../../../src/cli/skills/find-skill.js";
import { terminalWidth } from "../../../src/infra/text-table.js";

const skill = (name: string, skillKey = name) => ({ name, skillKey }) as SkillStatusEntry;

describe("findSkill (skills info <name>)", () => {
  const skills = [skill("release-notes"), skill("gh", "github"), skill("Deploy"), skill("deploy")];

  it("tries the exact name, the exact key, either in any case, then either loosely", () => {
    expect(findSkill(skills, "release-notes")).toEqual({ skill: skills[0] });
    expect(findSkill(skills, "github")).toEqual({ skill: skills[1] });
    expect(findSkill(skills, "GH")).toEqual({ skill: skills[1] });
    expect(findSkill(skills, " Release Notes ")).toEqual({ skill: skills[0] });
    expect(findSkill(skills, "release_notes")).toEqual({ skill: skills[0] });
  });

  it("the first rule that matches decides; several matches choose none", () => {
    expect(findSkill(skills, "Deploy")).toEqual({ skill: skills[2] });
    expect(findSkill(skills, "DEPLOY")).toEqual({ ambiguous: ["Deploy", "deploy"] });
    expect(findSkill(skills, "nope")).toEqual({ notFound: true });
    expect(findSkill(skills, "  ")).toEqual({ notFound: true });
  });
});

describe("terminalWidth", () => {
  it("counts emoji as two columns and ticks as one", () => {
    expect(terminalWidth("✓ ready")).toBe(7);
    expect(terminalWidth("🚫 blocked")).toBe(10);
    expect(terminalWidth("✅ x")).toBe(4);
    expect(terminalWidth("🗒️ x")).toBe(4);
    expect(terminalWidth("⏸ x")).toBe(3);
  });
});
