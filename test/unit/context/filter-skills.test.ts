import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../../src/config/index.js";
import { createBinaryLookup } from "../../../src/agents/skills/binary-on-path.js";
import { filterSkills } from "../../../src/agents/skills/filter-skills.js";
import { resolveSkillAllowlist } from "../../../src/agents/skills/skill-allowlist.js";
import type { DiscoveredSkill, SkillGating } from "../../../src/agents/skills/skill-types.js";
import { makeTempDir, writeFile } from "./temp-dir.js";

function skill(
  name: string,
  gating: Partial<Omit<SkillGating, "requires">> & { requires?: Partial<SkillGating["requires"]> } = {},
  source: DiscoveredSkill["source"] = "workspace",
): DiscoveredSkill {
  return {
    name,
    description: `Use when ${name}.`,
    filePath: `/skills/${name}/SKILL.md`,
    baseDir: `/skills/${name}`,
    source,
    userInvocable: true,
    disableModelInvocation: false,
    gating: { ...gating, always: gating.always ?? false, requires: { bins: [], anyBins: [], env: [], config: [], ...gating.requires } },
  };
}

const noBins = () => false;

describe("filterSkills", () => {
  it("keeps ungated skills and drops by os with a reason", () => {
    const result = filterSkills([skill("plain"), skill("mac-only", { os: ["darwin"] }), skill("here", { os: ["linux", "darwin"] })], {
      platform: "linux",
      env: {},
      hasBinary: noBins,
    });
    expect(result.kept.map((s) => s.name)).toEqual(["plain", "here"]);
    expect(result.dropped).toEqual([{ name: "mac-only", reason: "needs os darwin (this is linux)" }]);
  });

  it("checks required bins on PATH without spawning anything", () => {
    const binDir = makeTempDir();
    const tool = writeFile(binDir, "mytool", "#!/bin/sh\n");
    fs.chmodSync(tool, 0o755);
    writeFile(binDir, "not-executable", "data");
    const env = { PATH: [path.join(binDir, "missing-dir"), binDir].join(path.delimiter) };
    const skills = [
      skill("has-tool", { requires: { bins: ["mytool"] } }),
      skill("needs-missing", { requires: { bins: ["mytool", "nope-not-here"] } }),
      skill("non-exec", { requires: { bins: ["not-executable"] } }),
      skill("any-of", { requires: { anyBins: ["nope-not-here", "mytool"] } }),
      skill("none-of", { requires: { anyBins: ["nope-1", "nope-2"] } }),
    ];
    const result = filterSkills(skills, { platform: process.platform, env });
    expect(result.kept.map((s) => s.name)).toEqual(process.platform === "win32" ? [] : ["has-tool", "any-of"]);
    if (process.platform === "win32") return;
    expect(result.dropped).toEqual([
      { name: "needs-missing", reason: "missing on PATH: nope-not-here" },
      { name: "non-exec", reason: "missing on PATH: not-executable" },
      { name: "none-of", reason: "needs one of on PATH: nope-1, nope-2" },
    ]);
    expect(createBinaryLookup(env, "linux")("mytool")).toBe(true);
  });

  it("checks env vars, also when supplied by skills.entries", () => {
    const skills = [
      skill("set", { requires: { env: ["A_KEY"] } }),
      skill("missing", { requires: { env: ["B_KEY"] } }),
      skill("empty", { requires: { env: ["EMPTY"] } }),
      skill("from-entry-env", { requires: { env: ["C_KEY"] } }),
      skill("from-api-key", { primaryEnv: "D_KEY", requires: { env: ["D_KEY"] } }),
    ];
    const result = filterSkills(skills, {
      env: { A_KEY: "x", EMPTY: " " },
      hasBinary: noBins,
      entries: { "from-entry-env": { env: { C_KEY: "y" } }, "from-api-key": { apiKey: "z" } },
    });
    expect(result.kept.map((s) => s.name)).toEqual(["set", "from-entry-env", "from-api-key"]);
    expect(result.dropped).toEqual([
      { name: "missing", reason: "missing env: B_KEY" },
      { name: "empty", reason: "missing env: EMPTY" },
    ]);
  });

  it("does not count an entry value still reading ${NAME} (NAME was unset when the config loaded) as supplied", () => {
    const skills = [skill("env-ref", { requires: { env: ["C_KEY"] } }), skill("key-ref", { primaryEnv: "D_KEY", requires: { env: ["D_KEY"] } })];
    const result = filterSkills(skills, { env: {}, hasBinary: noBins, entries: { "env-ref": { env: { C_KEY: "${C_SOURCE}" } }, "key-ref": { apiKey: "${D_SOURCE}" } } });
    expect(result.dropped).toEqual([
      { name: "env-ref", reason: "missing env: C_KEY" },
      { name: "key-ref", reason: "missing env: D_KEY" },
    ]);
  });

  it("checks config paths for a truthy value", () => {
    const config = { ...defaultConfig(), extra: { off: false, on: "yes" } };
    const skills = [
      skill("port", { requires: { config: ["gateway.port"] } }),
      skill("off", { requires: { config: ["extra.off"] } }),
      skill("absent", { requires: { config: ["nothing.here"] } }),
      skill("malformed", { requires: { config: ["a[[b"] } }),
    ];
    const result = filterSkills(skills, { env: {}, hasBinary: noBins, config });
    expect(result.kept.map((s) => s.name)).toEqual(["port"]);
    expect(result.dropped.map((d) => d.reason)).toEqual(["config not set: extra.off", "config not set: nothing.here", "config not set: a[[b"]);
  });

  it("lets `always` skip the requirements but not the os check", () => {
    const result = filterSkills([skill("always", { always: true, requires: { bins: ["nope"], env: ["NOPE"] } }), skill("always-wrong-os", { always: true, os: ["win32"] })], {
      platform: "linux",
      env: {},
      hasBinary: noBins,
    });
    expect(result.kept.map((s) => s.name)).toEqual(["always"]);
    expect(result.dropped).toEqual([{ name: "always-wrong-os", reason: "needs os win32 (this is linux)" }]);
  });

  it("applies the allowlist, skills.entries.<key>.enabled and skills.allowBundled", () => {
    const skills = [skill("a"), skill("b"), skill("c", { skillKey: "c-key" }), skill("bundled-x", {}, "bundled"), skill("bundled-y", {}, "bundled")];
    const result = filterSkills(skills, {
      env: {},
      hasBinary: noBins,
      allowlist: ["a", "c", "bundled-x", "bundled-y"],
      entries: { "c-key": { enabled: false } },
      allowBundled: ["bundled-x"],
    });
    expect(result.kept.map((s) => s.name)).toEqual(["a", "bundled-x"]);
    expect(result.dropped).toEqual([
      { name: "b", reason: "not in the agent's skills allowlist" },
      { name: "c", reason: "disabled by skills.entries.c-key.enabled" },
      { name: "bundled-y", reason: "bundled skill not in skills.allowBundled" },
    ]);
  });
});

describe("resolveSkillAllowlist", () => {
  it("uses the agent's own list instead of the default one, [] meaning none", () => {
    const config = { agents: { defaults: { skills: ["a", "b"] }, entries: { main: {}, narrow: { skills: ["c"] }, mute: { skills: [] } } } };
    expect(resolveSkillAllowlist(config, "main")).toEqual(["a", "b"]);
    expect(resolveSkillAllowlist(config, "narrow")).toEqual(["c"]);
    expect(resolveSkillAllowlist(config, "mute")).toEqual([]);
    expect(resolveSkillAllowlist(defaultConfig(), "main")).toBeUndefined();
    const result = filterSkills([skill("a")], { env: {}, hasBinary: noBins, allowlist: resolveSkillAllowlist(config, "mute") });
    expect(result.kept).toEqual([]);
  });
});
