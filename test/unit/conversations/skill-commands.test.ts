import { describe, expect, it } from "vitest";
import { skillCommands } from "../../../src/conversations/commands/chat-commands.js";
import { skillCommandNames, skillCommandText } from "../../../src/conversations/commands/skill-commands.js";
import { nativeCommandMenu, nativeSkillMenu } from "../../../src/channels/commands/native-command-menu.js";
import { validateConfig } from "../../../src/config/validate.js";

const skill = (name: string) => ({ name, description: `the ${name} skill`, filePath: `/skills/${name}/SKILL.md` });

describe("skill commands", () => {
  it("names each skill a-z0-9_ within 32 characters, suffixing a name taken by a chat command or an earlier skill", () => {
    const names = skillCommandNames([skill("Release-Notes"), skill("release notes"), skill("x".repeat(40)), skill("help"), skill("---")], new Set(["help"]));
    expect([...names.keys()]).toEqual(["release_notes", "release_notes_2", "x".repeat(32), "help_2"]);
    expect([...skillCommands([skill("status"), skill("new")]).keys()]).toEqual(["status_2", "new_2"]);
  });

  it("turns /<name> [input] into the skill's instruction, and nothing else", () => {
    const names = skillCommandNames([skill("haiku")], new Set());
    expect(skillCommandText("/HAIKU about rain", names)).toBe('Use the skill "haiku": read /skills/haiku/SKILL.md first and follow it.\n\nabout rain');
    expect(skillCommandText("/haiku", names)).toBe('Use the skill "haiku": read /skills/haiku/SKILL.md first and follow it.');
    expect(skillCommandText("please /haiku", names)).toBeUndefined();
    expect(skillCommandText("/limerick", names)).toBeUndefined();
  });
});

describe("the native menu switches", () => {
  const config = (commands: Record<string, unknown>) => validateConfig({ commands }, {}).config;

  it("an account's own native / nativeSkills win over the global ones", () => {
    expect(nativeCommandMenu(config({ native: false })).length).toBe(0);
    expect(nativeCommandMenu(config({ native: false }), { native: true }).length).toBeGreaterThan(0);
    expect(nativeCommandMenu(config({}), { native: false })).toEqual([]);
    expect(nativeSkillMenu(config({}), [skill("haiku")], 10).map((c) => c.command)).toEqual(["haiku"]);
    expect(nativeSkillMenu(config({}), [skill("haiku")], 10, { nativeSkills: false })).toEqual([]);
    expect(nativeSkillMenu(config({ nativeSkills: false }), [skill("haiku")], 10, { nativeSkills: "auto" }).map((c) => c.command)).toEqual(["haiku"]);
    expect(nativeSkillMenu(config({}), [skill("a"), skill("b")], 99).map((c) => c.command)).toEqual(["a"]);
  });
});
