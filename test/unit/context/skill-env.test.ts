import { describe, expect, it } from "vitest";
import { skillExecEnv } from "../../../src/agents/skills/skill-env.js";
import type { DiscoveredSkill, SkillGating } from "../../../src/agents/skills/skill-types.js";

function skill(name: string, gating: Partial<Omit<SkillGating, "requires">> = {}): DiscoveredSkill {
  return {
    name,
    description: `Use when ${name}.`,
    filePath: `/skills/${name}/SKILL.md`,
    baseDir: `/skills/${name}`,
    source: "workspace",
    userInvocable: true,
    disableModelInvocation: false,
    gating: { ...gating, always: false, requires: { bins: [], anyBins: [], env: [], config: [] } },
  };
}

describe("skillExecEnv", () => {
  it("gives each offered skill's env, and its apiKey under the variable it names as primaryEnv", () => {
    const skills = [skill("gh", { primaryEnv: "GH_TOKEN" }), skill("keyed", { skillKey: "weather" }), skill("plain")];
    const entries = { gh: { apiKey: "gh-key", env: { GH_HOST: "example.com" } }, weather: { env: { WEATHER_UNITS: "metric" } }, other: { env: { NOT_OFFERED: "x" } } };
    expect(skillExecEnv(skills, entries, {})).toEqual({ GH_HOST: "example.com", GH_TOKEN: "gh-key", WEATHER_UNITS: "metric" });
  });

  it("keeps the gateway's own value of a variable it sets, and the first skill's value of a name two skills give", () => {
    const skills = [skill("first", { primaryEnv: "SHARED" }), skill("second")];
    const entries = { first: { apiKey: "from-first", env: { REGION: "eu" } }, second: { env: { SHARED: "from-second", REGION: "us" } } };
    expect(skillExecEnv(skills, entries, { REGION: "ap" })).toEqual({ SHARED: "from-first", REGION: "ap" });
  });

  it("gives nothing for a disabled entry, an apiKey without primaryEnv, a blank value or an unresolved ${NAME}", () => {
    const skills = [skill("off"), skill("no-primary"), skill("blank"), skill("ref", { primaryEnv: "REF_KEY" })];
    const entries = {
      off: { enabled: false, env: { A: "1" } },
      "no-primary": { apiKey: "k" },
      blank: { env: { B: " " } },
      ref: { apiKey: "${UNSET_SOURCE}", env: { C: "${ALSO_UNSET}" } },
    };
    expect(skillExecEnv(skills, entries, {})).toBeUndefined();
    expect(skillExecEnv(skills, undefined, {})).toBeUndefined();
  });
});
