import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { findBundledSkillsDir, resolveBundledSkillsDir } from "../../../src/agents/skills/bundled-skills-dir.js";
import { discoverSkills, MAX_SKILL_FILE_BYTES, skillRoots } from "../../../src/agents/skills/discover-skills.js";
import { parseSkillFile } from "../../../src/agents/skills/parse-skill.js";
import { makeTempDir, writeFile } from "./temp-dir.js";
import { simpleSkill, writeSkill } from "./skill-fixtures.js";

function layout() {
  const base = makeTempDir();
  return { workspaceDir: path.join(base, "ws"), stateDir: path.join(base, "state"), extra: path.join(base, "plugin-skills"), env: { HOME: base } };
}

describe("discoverSkills", () => {
  it("takes a name found in several places from the highest-precedence one", async () => {
    const l = layout();
    writeSkill(path.join(l.extra), "dup", simpleSkill("dup", "From the plugin."));
    writeSkill(path.join(l.stateDir, "skills"), "dup", simpleSkill("dup", "From managed."));
    writeSkill(path.join(l.workspaceDir, "skills"), "dup-in-ws", simpleSkill("dup", "From the workspace."));
    writeSkill(path.join(l.stateDir, "skills"), "only-managed", simpleSkill("only-managed"));
    writeSkill(path.join(l.extra), "only-extra", simpleSkill("only-extra"));

    const found = await discoverSkills({ workspaceDir: l.workspaceDir, stateDir: l.stateDir, extraDirs: [l.extra], bundledDir: null, env: l.env });
    expect(found.warnings).toEqual([]);
    expect(found.skills.map((s) => [s.name, s.source, s.description])).toEqual([
      ["dup", "workspace", "From the workspace."],
      ["only-managed", "managed", "Use when testing only-managed. Extra detail here."],
      ["only-extra", "extra", "Use when testing only-extra. Extra detail here."],
    ]);
    expect(found.overridden.map((o) => o.filePath)).toEqual([path.join(l.stateDir, "skills", "dup", "SKILL.md"), path.join(l.extra, "dup", "SKILL.md")]);
    expect(found.skills[0]!.filePath).toBe(path.join(l.workspaceDir, "skills", "dup-in-ws", "SKILL.md"));
    expect(found.skills[0]!.baseDir).toBe(path.join(l.workspaceDir, "skills", "dup-in-ws"));
  });

  it("reuses a parsed SKILL.md only while the file is unchanged and settled", async () => {
    const l = layout();
    const dir = path.join(l.workspaceDir, "skills");
    const file = path.join(dir, "cached", "SKILL.md");
    const options = { workspaceDir: l.workspaceDir, stateDir: l.stateDir, bundledDir: null, env: l.env };
    const age = (seconds: number) => fs.utimesSync(file, new Date(), new Date(Date.now() - seconds * 1000));
    writeSkill(dir, "cached", simpleSkill("cached", "First."));
    age(60);
    const first = await discoverSkills(options);
    // Unchanged and settled: the same parsed skill, not read again.
    expect((await discoverSkills(options)).skills[0]).toBe(first.skills[0]);
    // Edited (a new mtime): read again.
    writeSkill(dir, "cached", simpleSkill("cached", "Other."));
    age(30);
    expect((await discoverSkills(options)).skills[0]!.description).toBe("Other.");
    // Modified moments ago: a second edit may keep the same size and mtime (timestamps are
    // coarse), so such a file is read every time until it settles.
    const justNow = new Date(Date.now() - 100);
    writeSkill(dir, "cached", simpleSkill("cached", "Third."));
    fs.utimesSync(file, new Date(), justNow);
    expect((await discoverSkills(options)).skills[0]!.description).toBe("Third.");
    writeSkill(dir, "cached", simpleSkill("cached", "Forth."));
    fs.utimesSync(file, new Date(), justNow);
    expect((await discoverSkills(options)).skills[0]!.description).toBe("Forth.");
  });

  it("is stable: same folders, same order, however the directory lists them", async () => {
    const l = layout();
    for (const name of ["zeta", "alpha", "mid"]) writeSkill(path.join(l.workspaceDir, "skills"), name, simpleSkill(name));
    const options = { workspaceDir: l.workspaceDir, stateDir: l.stateDir, bundledDir: null, env: l.env };
    const first = await discoverSkills(options);
    expect(first.skills.map((s) => s.name)).toEqual(["alpha", "mid", "zeta"]);
    expect(await discoverSkills(options)).toEqual(first);
  });

  it("skips a bad SKILL.md with a warning and keeps the rest", async () => {
    const l = layout();
    const root = path.join(l.workspaceDir, "skills");
    writeSkill(root, "good", simpleSkill("good"));
    writeFile(root, "no-frontmatter/SKILL.md", "# just markdown\n");
    writeSkill(root, "bad-name", simpleSkill("Bad_Name"));
    writeSkill(root, "no-description", "name: no-description");
    writeSkill(root, "bad-yaml", "name: [unclosed\n  description: x");
    writeSkill(root, "bad-metadata", `${simpleSkill("bad-metadata")}\nmetadata: '{"openclaw": {'`);
    writeSkill(root, "bad-requires", `${simpleSkill("bad-requires")}\nmetadata:\n  openclaw:\n    requires:\n      bins: 42`);
    writeSkill(root, "same-name-again", simpleSkill("good"));
    fs.mkdirSync(path.join(root, "empty-folder"));
    writeFile(root, "loose-file.md", "not in a folder");

    const found = await discoverSkills({ workspaceDir: l.workspaceDir, stateDir: l.stateDir, bundledDir: null, env: l.env });
    expect(found.skills.map((s) => s.name)).toEqual(["good"]);
    const byFolder = (folder: string) => found.warnings.find((w) => w.startsWith(path.join(root, folder, "SKILL.md")));
    expect(byFolder("no-frontmatter")).toMatch(/skipped, no frontmatter/);
    expect(byFolder("bad-name")).toMatch(/skipped, name "Bad_Name" must be lowercase/);
    expect(byFolder("no-description")).toMatch(/skipped, description is missing/);
    expect(byFolder("bad-yaml")).toMatch(/skipped, invalid YAML in frontmatter/);
    expect(byFolder("bad-metadata")).toMatch(/skipped, metadata is not valid JSON/);
    expect(byFolder("bad-requires")).toMatch(/skipped, requires\.bins must be a string or a list of strings/);
    expect(byFolder("same-name-again")).toMatch(/skill "good" is already defined by/);
    expect(found.warnings).toHaveLength(7);
  });

  it("skips files over the size limit and symlinks leading outside their folder", async () => {
    const l = layout();
    const root = path.join(l.workspaceDir, "skills");
    writeSkill(root, "huge", simpleSkill("huge"), "x".repeat(MAX_SKILL_FILE_BYTES));
    const outside = writeSkill(path.join(l.stateDir, "elsewhere"), "sneaky", simpleSkill("sneaky"));
    fs.symlinkSync(path.dirname(outside), path.join(root, "sneaky"));
    const found = await discoverSkills({ workspaceDir: l.workspaceDir, stateDir: l.stateDir, bundledDir: null, env: l.env });
    expect(found.skills).toEqual([]);
    expect(found.warnings).toEqual([
      expect.stringMatching(/huge\/SKILL\.md: skipped, \d+ bytes is over the 256000-byte limit$/),
      expect.stringMatching(/sneaky\/SKILL\.md: skipped, it resolves outside /),
    ]);
  });

  it("takes a symlinked skill whose real path is inside skills.load.allowSymlinkTargets (~/ expanded), and only there", async () => {
    const l = layout();
    const root = path.join(l.workspaceDir, "skills");
    const repo = path.join(l.env.HOME, "repos", "skills");
    fs.mkdirSync(root, { recursive: true });
    fs.symlinkSync(path.dirname(writeSkill(repo, "manager", simpleSkill("manager"))), path.join(root, "manager"), "dir");
    fs.symlinkSync(path.dirname(writeSkill(path.join(l.env.HOME, "other"), "stray", simpleSkill("stray"))), path.join(root, "stray"), "dir");
    const found = await discoverSkills({ workspaceDir: l.workspaceDir, stateDir: l.stateDir, bundledDir: null, env: l.env, allowSymlinkTargets: ["~/repos/skills", "~/missing"] });
    expect(found.skills.map((s) => s.name)).toEqual(["manager"]);
    expect(found.warnings).toEqual([expect.stringMatching(/stray\/SKILL\.md: skipped, it resolves outside .*skills\.load\.allowSymlinkTargets/)]);
  });

  it("finds the two bundled skills of this package", async () => {
    const bundled = resolveBundledSkillsDir();
    expect(bundled).toBe(path.resolve("skills"));
    const l = layout();
    const found = await discoverSkills({ workspaceDir: l.workspaceDir, stateDir: l.stateDir, env: l.env });
    expect(found.warnings).toEqual([]);
    expect(found.skills.map((s) => [s.name, s.source])).toEqual([
      ["gateway-diagnostics", "bundled"],
      ["workspace-notes", "bundled"],
    ]);
    for (const skill of found.skills) {
      expect(skill.description.length).toBeLessThan(160);
      expect(skill.description).toMatch(/^Use when /);
      expect(skill.gating.emoji).toBeTruthy();
    }
  });

  it("uses ~/.agents/skills only with the default state dir", () => {
    const base = makeTempDir();
    const env = { HOME: base };
    const sources = (stateDir: string) => skillRoots({ workspaceDir: path.join(base, "ws"), stateDir, bundledDir: null, env }).map((r) => r.source);
    expect(sources(path.join(base, ".openclaw"))).toEqual(["workspace", "workspace-agents", "personal-agents", "managed"]);
    expect(sources(path.join(base, "isolated"))).toEqual(["workspace", "workspace-agents", "managed"]);
  });
});

describe("findBundledSkillsDir", () => {
  it("walks up from a bundled dist/bin chunk or a compiled module to the package's skills/", () => {
    const pkg = makeTempDir();
    writeFile(pkg, "package.json", "{}");
    fs.mkdirSync(path.join(pkg, "skills"));
    // dist/agents/skills is itself called "skills" but has no package.json beside it.
    fs.mkdirSync(path.join(pkg, "dist", "agents", "skills"), { recursive: true });
    fs.mkdirSync(path.join(pkg, "dist", "bin"), { recursive: true });
    const url = (relative: string) => pathToFileURL(path.join(pkg, relative)).href;
    expect(findBundledSkillsDir(url("dist/bin/openclaw.js"))).toBe(path.join(pkg, "skills"));
    expect(findBundledSkillsDir(url("dist/agents/skills/discover-skills.js"))).toBe(path.join(pkg, "skills"));
  });
});

describe("parseSkillFile", () => {
  const file = "/x/demo/SKILL.md";

  it("reads metadata given as a YAML mapping", () => {
    const text = `---
name: demo
description: Use when demoing. More.
homepage: https://example.com
user-invocable: false
metadata:
  openclaw:
    emoji: "🧪"
    os: [linux, darwin]
    always: false
    primaryEnv: DEMO_KEY
    requires:
      bins: [git]
      anyBins: [rg, grep]
      env: DEMO_KEY
      config: [gateway.port]
---
Body`;
    const parsed = parseSkillFile(text, file, "managed");
    expect("skill" in parsed && parsed.skill).toMatchObject({
      name: "demo",
      description: "Use when demoing. More.",
      baseDir: "/x/demo",
      source: "managed",
      homepage: "https://example.com",
      userInvocable: false,
      disableModelInvocation: false,
      gating: {
        emoji: "🧪",
        os: ["linux", "darwin"],
        always: false,
        primaryEnv: "DEMO_KEY",
        requires: { bins: ["git"], anyBins: ["rg", "grep"], env: ["DEMO_KEY"], config: ["gateway.port"] },
      },
    });
  });

  it("reads metadata given as a JSON string, and the legacy clawdbot block", () => {
    const json = `---\nname: demo\ndescription: Use when demoing.\nmetadata: {"openclaw": {"requires": {"bins": ["jq"]}, "os": ["linux"]}}\n---\n`;
    const parsed = parseSkillFile(json, file, "workspace");
    expect("skill" in parsed && parsed.skill.gating).toEqual({ os: ["linux"], always: false, requires: { bins: ["jq"], anyBins: [], env: [], config: [] } });

    const legacy = `---\nname: demo\ndescription: Use when demoing.\nmetadata: '{"clawdbot": {"requires": {"env": ["TOKEN"]}}}'\n---\n`;
    const old = parseSkillFile(legacy, file, "workspace");
    expect("skill" in old && old.skill.gating.requires.env).toEqual(["TOKEN"]);
  });

  it("accepts flat key: value lines that YAML rejects (a colon inside the description)", () => {
    const text = `---\nname: colon\ndescription: Use when: the gateway is down. Not for: code.\ndisable-model-invocation: true\n---\n`;
    const parsed = parseSkillFile(text, file, "workspace");
    expect("skill" in parsed && [parsed.skill.description, parsed.skill.disableModelInvocation]).toEqual(["Use when: the gateway is down. Not for: code.", true]);
  });

  it("handles CRLF line endings and a byte-order mark", () => {
    const text = "\uFEFF---\r\nname: crlf\r\ndescription: Use when on Windows.\r\n---\r\nBody\r\n";
    const parsed = parseSkillFile(text, file, "workspace");
    expect("skill" in parsed && parsed.skill.name).toBe("crlf");
  });
});
