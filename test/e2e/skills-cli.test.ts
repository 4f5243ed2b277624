import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";

/**
 * `openclaw skills list|info|check` compute the skills status from the config and the agent's
 * workspace, no gateway running: a ready skill (its binary on PATH, its variable from env.vars),
 * one missing a binary and variables, one switched off by skills.entries, a bundled one blocked by
 * skills.allowBundled, and a second agent with its own workspace and allowlist.
 */

let stateDir: string;
const env = () => ({ OPENCLAW_STATE_DIR: stateDir });

function writeSkill(workspace: string, folder: string, frontmatter: string): void {
  const dir = path.join(stateDir, workspace, "skills", folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), `---\n${frontmatter}\n---\nSteps.\n`);
}

beforeAll(() => {
  stateDir = makeTempDir("openclaw-skills-cli-");
  const meta = (value: object) => `metadata: ${JSON.stringify({ openclaw: value })}`;
  writeSkill(
    "workspace",
    "ready-one",
    ["name: ready-one", "description: Use when the ready thing is asked for.", meta({ emoji: "✅", requires: { bins: ["sh"], env: ["SKILLS_CLI_READY_VAR"] } })].join("\n"),
  );
  writeSkill(
    "workspace",
    "needs-tool",
    [
      "name: needs-tool",
      "description: Use when the missing tool is needed.",
      "homepage: https://example.test/keys",
      meta({ emoji: "🔧", primaryEnv: "SKILLS_CLI_TOOL_KEY", requires: { bins: ["no-such-binary-xyz"], env: ["SKILLS_CLI_TOOL_KEY", "SKILLS_CLI_TOOL_REGION"] } }),
    ].join("\n"),
  );
  writeSkill("workspace", "switched-off", "name: switched-off\ndescription: Use when nothing else fits.");
  writeSkill("workspace-ops", "ops-only", "name: ops-only\ndescription: Use when operating.");
  writeSkill("workspace-ops", "broken", "description: no name here");
  const config = {
    env: { vars: { SKILLS_CLI_READY_VAR: "set-by-config" } },
    skills: { allowBundled: ["gateway-diagnostics"], entries: { "switched-off": { enabled: false } } },
    agents: { entries: { main: { default: true }, ops: { skills: ["ops-only"] } } },
  };
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config, null, 2));
});

async function json(args: string[]) {
  const res = await runCli(args, env());
  expect(res.code, res.output).toBe(0);
  return JSON.parse(res.output);
}

describe("openclaw skills list", () => {
  it("prints a table of status, skill, description and source, with how many are ready", async () => {
    const { code, output } = await runCli(["skills", "list"], env());
    expect(code, output).toBe(0);
    expect(output).toMatch(/^Skills \(2\/5 ready\)\nStatus {2,}Skill {2,}Description {2,}Source\n/);
    expect(output).toMatch(/^✓ ready {2,}✅ ready-one {2,}Use when the ready thing is asked for\. {2,}openclaw-workspace$/m);
    expect(output).toMatch(/^△ needs setup {2}🔧 needs-tool {2,}Use when the missing tool is needed\. {2,}openclaw-workspace$/m);
    expect(output).toMatch(/^⏸ disabled {2,}📦 switched-off {2,}Use when nothing else fits\. {2,}openclaw-workspace$/m);
    expect(output).toMatch(/^🚫 blocked {2,}\S+ workspace-notes .* openclaw-bundled$/m);
    expect(output).toMatch(/^✓ ready {2,}\S+ gateway-diagnostics .* openclaw-bundled$/m);
    expect(output).not.toContain("Missing");
    // Bare `openclaw skills` is `skills list`.
    expect((await runCli(["skills"], env())).output).toBe(output);
  });

  it("--verbose adds what each skill is missing", async () => {
    const { output } = await runCli(["skills", "list", "-v"], env());
    expect(output).toMatch(/Source {2,}Missing\n/);
    expect(output).toMatch(/needs-tool .* openclaw-workspace {2}bins: no-such-binary-xyz; env: SKILLS_CLI_TOOL_KEY, SKILLS_CLI_TOOL_REGION$/m);
    expect(output).toMatch(/ready-one .* openclaw-workspace$/m);
  });

  it("--json gives each skill's status fields and what it is missing", async () => {
    const list = await json(["skills", "list", "--json"]);
    expect(list.workspaceDir).toBe(path.join(stateDir, "workspace"));
    expect(list.managedSkillsDir).toBe(path.join(stateDir, "skills"));
    const byName = new Map((list.skills as Record<string, any>[]).map((s) => [s.name, s]));
    expect([...byName.keys()].sort()).toEqual(["gateway-diagnostics", "needs-tool", "ready-one", "switched-off", "workspace-notes"]);
    expect(byName.get("ready-one")).toMatchObject({ eligible: true, disabled: false, modelVisible: true, commandVisible: true, source: "openclaw-workspace", emoji: "✅" });
    expect(byName.get("needs-tool")).toMatchObject({
      eligible: false,
      disabled: false,
      primaryEnv: "SKILLS_CLI_TOOL_KEY",
      homepage: "https://example.test/keys",
      missing: { bins: ["no-such-binary-xyz"], anyBins: [], env: ["SKILLS_CLI_TOOL_KEY", "SKILLS_CLI_TOOL_REGION"], config: [], os: [] },
    });
    expect(byName.get("switched-off")).toMatchObject({ eligible: false, disabled: true, modelVisible: false });
    expect(byName.get("workspace-notes")).toMatchObject({ eligible: false, blockedByAllowlist: true, bundled: true, source: "openclaw-bundled" });
  });

  it("--eligible keeps only the skills ready for the agent, in text and JSON", async () => {
    const { output } = await runCli(["skills", "list", "--eligible"], env());
    expect(output).toMatch(/^Skills \(2\/2 ready\)\n/);
    expect(output).toContain("ready-one");
    expect(output).toContain("gateway-diagnostics");
    expect(output).not.toMatch(/needs-tool|switched-off|workspace-notes/);
    const list = await json(["skills", "list", "--eligible", "--json"]);
    expect(list.skills.map((s: { name: string }) => s.name).sort()).toEqual(["gateway-diagnostics", "ready-one"]);
  });

  it("--agent lists that agent's workspace under its allowlist, and names a skill discovery skipped", async () => {
    const { code, output } = await runCli(["skills", "list", "--agent", "ops"], env());
    expect(code, output).toBe(0);
    expect(output).toMatch(/^✓ ready {2,}📦 ops-only {2,}Use when operating\. {2,}openclaw-workspace$/m);
    expect(output).toMatch(/^🚫 excluded {2,}\S+ gateway-diagnostics /m);
    expect(output).not.toContain("ready-one");
    expect(output).toContain(`openclaw: skills: ${path.join(stateDir, "workspace-ops", "skills", "broken", "SKILL.md")}: skipped`);
    const eligible = await runCli(["skills", "list", "--agent", "OPS", "--eligible"], env());
    expect(eligible.output).toMatch(/^Skills \(1\/1 ready\)$/m);
  });

  it("an unknown agent fails naming it and the configured agents, in text and JSON", async () => {
    const text = await runCli(["skills", "list", "--agent", "nobody"], env());
    expect(text.code).toBe(1);
    expect(text.output).toContain('openclaw: unknown agent "nobody"; known agents: main, ops');
    const res = await runCli(["skills", "check", "--agent", "nobody", "--json"], env());
    expect(res.code).toBe(1);
    expect(JSON.parse(res.output)).toEqual({ ok: false, error: { type: "cli_error", message: expect.stringContaining('unknown agent "nobody"; known agents: main, ops') } });
  });

  it("a mistyped subcommand is named with the nearest one", async () => {
    const { code, output } = await runCli(["skills", "lsit"], env());
    expect(code).toBe(1);
    expect(output).toContain("openclaw: unknown command 'skills lsit' (did you mean 'skills list'?); skills commands: list, info, check");
  });
});

describe("openclaw skills info", () => {
  it("shows a ready skill's details with each requirement met", async () => {
    const { code, output } = await runCli(["skills", "info", "ready-one"], env());
    expect(code, output).toBe(0);
    expect(output).toMatch(/^✅ ready-one ✓ Ready\n\nUse when the ready thing is asked for\.\n\nDetails:\n {2}Source: openclaw-workspace\n/);
    expect(output).toContain(`  Path: ${path.join(stateDir, "workspace", "skills", "ready-one", "SKILL.md")}\n`);
    expect(output).toContain("  Visible to model: yes\n  Available as command: yes\n");
    expect(output).toContain("Requirements:\n  Binaries: ✓ sh\n  Environment: ✓ SKILLS_CLI_READY_VAR\n");
    expect(output).not.toContain("To make it ready");
  });

  it("shows what a skill lacks, how to supply it, and where its key goes", async () => {
    const { code, output } = await runCli(["skills", "info", "needs-tool"], env());
    expect(code, output).toBe(0);
    expect(output).toMatch(/^🔧 needs-tool △ Needs setup\n/);
    expect(output).toContain("  Homepage: https://example.test/keys\n");
    expect(output).toContain("  Visible to model: no\n");
    expect(output).toContain("  Primary env: SKILLS_CLI_TOOL_KEY\n");
    expect(output).toContain("  Binaries: ✗ no-such-binary-xyz\n  Environment: ✗ SKILLS_CLI_TOOL_KEY, ✗ SKILLS_CLI_TOOL_REGION\n");
    expect(output).toContain("  → install no-such-binary-xyz on the PATH the gateway runs with\n");
    expect(output).toContain("  → set SKILLS_CLI_TOOL_REGION in the gateway's environment, env.vars, or skills.entries.needs-tool.env\n");
    expect(output).toContain(
      `API key setup:\n  Get your key: https://example.test/keys\n  Save via CLI: openclaw config set skills.entries.needs-tool.apiKey YOUR_KEY\n  Stored in: ${path.join(stateDir, "openclaw.json")}\n`,
    );
  });

  it("says how to turn a disabled skill back on", async () => {
    const { output } = await runCli(["skills", "info", "switched-off"], env());
    expect(output).toMatch(/^📦 switched-off ⏸ Disabled\n/);
    expect(output).toContain("  → turn it on: openclaw config set skills.entries.switched-off.enabled true\n");
  });

  it("--json prints the whole status entry; a loose name finds the skill", async () => {
    const skill = await json(["skills", "info", "Needs Tool", "--json"]);
    expect(skill).toMatchObject({
      name: "needs-tool",
      skillKey: "needs-tool",
      filePath: path.join(stateDir, "workspace", "skills", "needs-tool", "SKILL.md"),
      eligible: false,
      requirements: { bins: ["no-such-binary-xyz"], env: ["SKILLS_CLI_TOOL_KEY", "SKILLS_CLI_TOOL_REGION"] },
      missing: { bins: ["no-such-binary-xyz"], env: ["SKILLS_CLI_TOOL_KEY", "SKILLS_CLI_TOOL_REGION"] },
      install: [],
    });
  });

  it("an unknown skill fails naming it, in text and JSON", async () => {
    const text = await runCli(["skills", "info", "no-such-skill"], env());
    expect(text.code).toBe(1);
    expect(text.output).toBe('openclaw: Skill "no-such-skill" not found for agent main. Run `openclaw skills list` to see available skills.\n');
    const res = await runCli(["skills", "info", "no-such-skill", "--json"], env());
    expect(res.code).toBe(1);
    expect(JSON.parse(res.output).error.message).toContain('Skill "no-such-skill" not found');
    // A skill of another agent's workspace is not this one's.
    expect((await runCli(["skills", "info", "ops-only"], env())).code).toBe(1);
  });
});

describe("openclaw skills check", () => {
  it("counts the skills by status and lists the ready and the missing ones", async () => {
    const { code, output } = await runCli(["skills", "check"], env());
    expect(code, output).toBe(0);
    expect(output).toContain(
      [
        "Skills Status Check",
        "Agent: main",
        "",
        "Total: 5",
        "✓ Eligible: 2",
        "✓ Visible to model: 2",
        "✓ Available as command: 2",
        "⏸ Disabled: 1",
        "🚫 Blocked by allowlist: 1",
        "🚫 Excluded by agent allowlist: 0",
        "✗ Missing requirements: 1",
      ].join("\n"),
    );
    expect(output).toMatch(/Ready and visible to model:\n {2}✅ ready-one\n {2}\S+ gateway-diagnostics\n/);
    expect(output).toContain("Missing requirements:\n  🔧 needs-tool (bins: no-such-binary-xyz; env: SKILLS_CLI_TOOL_KEY, SKILLS_CLI_TOOL_REGION)\n");
  });

  it("--json gives the summary and each group's names", async () => {
    const check = await json(["skills", "check", "--json"]);
    expect(check).toMatchObject({
      agentId: "main",
      workspaceDir: path.join(stateDir, "workspace"),
      summary: { total: 5, eligible: 2, modelVisible: 2, commandVisible: 2, disabled: 1, blocked: 1, agentFiltered: 0, notInjected: 0, missingRequirements: 1 },
      eligible: ["ready-one", "gateway-diagnostics"],
      disabled: ["switched-off"],
      blocked: ["workspace-notes"],
      agentFiltered: [],
      notInjected: [],
    });
    expect(check.agentSkillFilter).toBeUndefined();
    expect(check.missingRequirements).toEqual([
      { name: "needs-tool", missing: { bins: ["no-such-binary-xyz"], anyBins: [], env: ["SKILLS_CLI_TOOL_KEY", "SKILLS_CLI_TOOL_REGION"], config: [], os: [] }, install: [] },
    ]);
  });

  it("--agent checks that agent, with its allowlist", async () => {
    const res = await runCli(["skills", "check", "--agent", "ops"], env());
    expect(res.output).toContain("Agent: ops\n");
    expect(res.output).toContain("🚫 Excluded by agent allowlist: 2\n");
    expect(res.output).toMatch(/Excluded by agent allowlist:\n {2}\S+ gateway-diagnostics \(loaded, but this agent is not allowed to see\/use it\)\n/);
  });
});
