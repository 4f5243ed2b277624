import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadBootstrapFiles, type LoadedBootstrap } from "../../../src/agents/context/bootstrap-files.js";
import { formatCurrentTime, localClockParts, zoneClockParts } from "../../../src/agents/context/format-current-time.js";
import { hostTimeZone } from "../../../src/infra/host-time-zone.js";
import { formatRuntimeLine } from "../../../src/agents/context/runtime-line.js";
import { resolveRepoRoot } from "../../../src/agents/context/repo-root.js";
import { buildSystemPrompt, type BuildSystemPromptParams } from "../../../src/agents/context/system-prompt.js";
import { ensureWorkspace } from "../../../src/agents/context/workspace.js";
import { discoverSkills } from "../../../src/agents/skills/discover-skills.js";
import { filterSkills } from "../../../src/agents/skills/filter-skills.js";
import { makeTempDir } from "./temp-dir.js";

const CORE_TOOLS = [
  { name: "read", summary: "Read a file." },
  { name: "write", summary: "Create or overwrite a file." },
  { name: "edit", summary: "Replace exact text in a file." },
  { name: "apply_patch", summary: "Apply a multi-file patch." },
  { name: "exec", summary: "Run a shell command." },
  { name: "process", summary: "Manage background processes." },
  { name: "web_fetch", summary: "Fetch a URL as text." },
];

const bootstrap: LoadedBootstrap = {
  files: [
    { name: "AGENTS.md", content: "Agent rules.", truncated: false, originalChars: 12 },
    { name: "SOUL.md", content: "Be kind.", truncated: false, originalChars: 8 },
  ],
  warnings: [],
};

function params(overrides: Partial<BuildSystemPromptParams> = {}): BuildSystemPromptParams {
  return {
    mode: "full",
    agentId: "main",
    tools: CORE_TOOLS,
    skills: [{ name: "demo", description: "Use when demoing. More text.", filePath: "/ws/skills/demo/SKILL.md" }],
    memoryToolsAvailable: true,
    workspaceDir: "/ws",
    bootstrap,
    runtime: { agentId: "main", host: "box", os: "linux 6.8 (x64)", node: "v20.19.0", model: "anthropic/claude-test" },
    now: new Date("2026-11-29T18:14:00Z"),
    timeZone: "Europe/Berlin",
    ...overrides,
  };
}

const names = (built: { sections: { name: string }[] }) => built.sections.map((s) => s.name);

describe("buildSystemPrompt", () => {
  it("full mode: stable sections first, bootstrap before runtime, date/time last", () => {
    const built = buildSystemPrompt(params({ extraSystemPrompt: "You are in #general." }));
    expect(names(built)).toEqual(["identity", "tools", "safety", "skills", "memory", "workspace", "bootstrap", "extra", "runtime", "datetime"]);
    const text = built.text;
    const at = (needle: string) => {
      const index = text.indexOf(needle);
      expect(index, needle).toBeGreaterThanOrEqual(0);
      return index;
    };
    expect(text.startsWith("You are a personal assistant running inside OpenClaw.")).toBe(true);
    expect(at("## Tooling")).toBeLessThan(at("## Safety"));
    expect(at("## Safety")).toBeLessThan(at("## Skills"));
    expect(at("## Skills")).toBeLessThan(at("## Memory Recall"));
    expect(at("## Memory Recall")).toBeLessThan(at("## Workspace"));
    expect(at("## Workspace")).toBeLessThan(at("# Project Context"));
    expect(at("## AGENTS.md\n\nAgent rules.")).toBeLessThan(at("## SOUL.md\n\nBe kind."));
    expect(at("## SOUL.md")).toBeLessThan(at("## Group Chat Context\nYou are in #general."));
    expect(at("## Group Chat Context")).toBeLessThan(at("## Runtime\nRuntime: agent=main"));
    expect(text.endsWith("## Current Date & Time\n2026-11-29 19:14 Sunday, time zone Europe/Berlin (UTC+01:00)")).toBe(true);
    expect(built.sections.reduce((sum, s) => sum + s.chars, 0) + 2 * (built.sections.length - 1)).toBe(text.length);
  });

  it("minimal mode (sub-agents): identity, tools, workspace, runtime, date", () => {
    const built = buildSystemPrompt(params({ mode: "minimal", extraSystemPrompt: "Summarize the logs." }));
    expect(names(built)).toEqual(["identity", "tools", "workspace", "extra", "runtime", "datetime"]);
    expect(built.text).toContain("## Subagent Context\nSummarize the logs.");
    for (const absent of ["## Safety", "## Skills", "## Memory Recall", "# Project Context", "Agent rules.", "memory/YYYY-MM-DD.md"]) {
      expect(built.text).not.toContain(absent);
    }
    expect(names(buildSystemPrompt(params({ mode: "minimal" })))).toEqual(["identity", "tools", "workspace", "runtime", "datetime"]);
  });

  it("none mode: the identity line only", () => {
    expect(buildSystemPrompt(params({ mode: "none" }))).toEqual({
      text: "You are a personal assistant running inside OpenClaw.",
      sections: [{ name: "identity", chars: 53 }],
      version: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(buildSystemPrompt(params({ mode: "none", identityName: "Molty" })).text).toBe("You are a personal assistant running inside OpenClaw.\nYour name is Molty.");
  });

  it("leaves out empty optional sections", () => {
    const built = buildSystemPrompt(params({ skills: [], memoryToolsAvailable: false, bootstrap: { files: [], warnings: [] } }));
    expect(names(built)).toEqual(["identity", "tools", "safety", "workspace", "runtime", "datetime"]);
    expect(buildSystemPrompt(params({ tools: [] })).text).toContain("## Tooling\nNo tools are available in this session.");
  });

  it("gives identical bytes for identical inputs, whatever order the tools came in", () => {
    const a = buildSystemPrompt(params());
    const b = buildSystemPrompt(params({ tools: [...CORE_TOOLS].reverse() }));
    expect(Buffer.from(b.text).equals(Buffer.from(a.text))).toBe(true);
    const withExtras = buildSystemPrompt(params({ tools: [{ name: "zeta", summary: "z" }, ...CORE_TOOLS, { name: "alpha", summary: "a" }, { name: "read", summary: "dup" }] }));
    const toolLines = withExtras.text
      .split("\n")
      .filter((line) => line.startsWith("- ") && line.includes(" — "))
      .map((line) => line.split(" — ")[0]);
    expect(toolLines).toEqual(["- read", "- write", "- edit", "- apply_patch", "- exec", "- process", "- web_fetch", "- alpha", "- zeta"]);
  });

  it("keeps everything before the runtime line unchanged when only time, model or channel change", () => {
    const base = buildSystemPrompt(params());
    const later = buildSystemPrompt(
      params({
        now: new Date("2027-03-01T08:00:00Z"),
        runtime: { ...params().runtime, model: "openai/gpt-test", channel: "telegram", capabilities: ["inlineButtons"] },
      }),
    );
    const cut = base.text.indexOf("## Runtime");
    expect(later.text.slice(0, cut)).toBe(base.text.slice(0, cut));
    expect(later.text).not.toBe(base.text);
    expect(later.text.slice(0, cut)).toContain("Be kind.");
  });

  it("gives back the same prompt for a turn with the same session lines, and a new one when a line changes", () => {
    const first = buildSystemPrompt(params());
    expect(buildSystemPrompt(params())).toBe(first);
    const nextMinute = buildSystemPrompt(params({ now: new Date(params().now.getTime() + 60_000) }));
    expect(nextMinute).not.toBe(first);
    expect(nextMinute.text).not.toBe(first.text);
    const withExtra = buildSystemPrompt(params({ extraSystemPrompt: "Group rules." }));
    expect(withExtra.text).toContain("Group rules.");
    expect(withExtra.sections.map((section) => section.name)).toContain("extra");
  });

  it("names its version by what someone changed in the agent: not the clock, session lines, tools, mode, memory or the first-run ritual", () => {
    const base = buildSystemPrompt(params()).version;
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    const withFiles = (...extra: { name: string; content: string }[]): LoadedBootstrap => ({
      files: [...bootstrap.files, ...extra.map((f) => ({ ...f, truncated: false, originalChars: f.content.length }))],
      warnings: [],
    });
    // What changes every turn or as the agent works leaves the version alone.
    expect(buildSystemPrompt(params({ now: new Date("2026-12-07T09:00:00Z"), extraSystemPrompt: "You are in #ops." })).version).toBe(base);
    expect(buildSystemPrompt(params({ runtime: { agentId: "main", host: "other", os: "linux", node: "v24", model: "x/y" } })).version).toBe(base);
    // A session's tool policy and a sub-agent's minimal prompt are the same agent.
    expect(buildSystemPrompt(params({ tools: CORE_TOOLS.slice(1), memoryToolsAvailable: false })).version).toBe(base);
    expect(buildSystemPrompt(params({ mode: "minimal" })).version).toBe(base);
    const withMemory = buildSystemPrompt(params({ bootstrap: withFiles({ name: "MEMORY.md", content: "The user likes tea." }, { name: "BOOTSTRAP.md", content: "Hello." }) }));
    expect(withMemory.text).toContain("The user likes tea.");
    expect(withMemory.version).toBe(base);
    // What someone changed in the agent does change it.
    const soul: LoadedBootstrap = { files: [bootstrap.files[0]!, { name: "SOUL.md", content: "Be terse.", truncated: false, originalChars: 9 }], warnings: [] };
    expect(buildSystemPrompt(params({ bootstrap: soul })).version).not.toBe(base);
    expect(buildSystemPrompt(params({ identityName: "Molty" })).version).not.toBe(base);
    expect(buildSystemPrompt(params({ skills: [] })).version).not.toBe(base);
  });

  it("puts the skills index under its budget", () => {
    const skills = Array.from({ length: 20 }, (_, i) => ({ name: `s-${i}`, description: `Use when ${i}.`, filePath: `/ws/skills/s${i}/SKILL.md` }));
    const built = buildSystemPrompt(params({ skills, skillsCharBudget: 600 }));
    const section = built.sections.find((s) => s.name === "skills")!;
    expect(section.chars).toBeLessThanOrEqual(600 + "## Skills\n".length);
    expect(built.text).toMatch(/\(\d+ more skills were left out to fit the prompt budget\.\)/);
    expect(built.text).toContain("- s-0: Use when 0. → skills/s0/SKILL.md");
  });

  it("stays small for the default workspace, the 7 core tools and the bundled skills", async () => {
    const base = makeTempDir();
    const { workspaceDir } = await ensureWorkspace(path.join(base, "workspace"));
    const loaded = await loadBootstrapFiles(workspaceDir, { maxCharsPerFile: 20_000, maxTotalChars: 60_000 });
    expect(loaded.files).toHaveLength(8);
    const discovered = await discoverSkills({ workspaceDir, stateDir: base, env: { HOME: base } });
    const { kept } = filterSkills(discovered.skills, { env: {} });
    expect(kept.map((s) => s.name)).toEqual(["gateway-diagnostics", "workspace-notes"]);
    const built = buildSystemPrompt(params({ workspaceDir, bootstrap: loaded, skills: kept, memoryToolsAvailable: true }));
    console.info(`default full system prompt: ${built.text.length} chars, ${Buffer.byteLength(built.text)} bytes;`, built.sections.map((s) => `${s.name}=${s.chars}`).join(" "));
    expect(Buffer.byteLength(built.text)).toBeLessThan(8 * 1024);
  });
});

describe("formatRuntimeLine", () => {
  it("joins the non-empty fields; capabilities only with a channel", () => {
    const runtime = { agentId: "main", host: "box", os: "linux (x64)", node: "v20.19.0", model: "a/b" };
    expect(formatRuntimeLine(runtime)).toBe("Runtime: agent=main | host=box | os=linux (x64) | node=v20.19.0 | model=a/b");
    expect(formatRuntimeLine({ ...runtime, host: "", capabilities: ["x"] })).toBe("Runtime: agent=main | os=linux (x64) | node=v20.19.0 | model=a/b");
    expect(formatRuntimeLine({ ...runtime, channel: "telegram" })).toContain("| channel=telegram | capabilities=none");
    expect(formatRuntimeLine({ ...runtime, channel: "slack", capabilities: ["threads", "reactions"] })).toContain("capabilities=threads,reactions");
    expect(formatRuntimeLine({ ...runtime, repo: "/src/app" })).toBe("Runtime: agent=main | host=box | repo=/src/app | os=linux (x64) | node=v20.19.0 | model=a/b");
  });
});

describe("resolveRepoRoot", () => {
  it("agents.defaults.repoRoot, else the nearest folder above the workspace with .git (a directory or a worktree's file), else none", () => {
    const root = makeTempDir();
    const workspace = path.join(root, "repo", "packages", "agent");
    fs.mkdirSync(workspace, { recursive: true });
    expect(resolveRepoRoot(undefined, workspace)).toBeUndefined();
    const other = path.join(root, "worktree", "sub");
    fs.mkdirSync(other, { recursive: true });
    fs.writeFileSync(path.join(root, "worktree", ".git"), "gitdir: /elsewhere\n");
    expect(resolveRepoRoot(undefined, other)).toBe(path.join(root, "worktree"));
    const fresh = path.join(root, "repo2", "ws");
    fs.mkdirSync(path.join(root, "repo2", ".git"), { recursive: true });
    fs.mkdirSync(fresh, { recursive: true });
    expect(resolveRepoRoot(undefined, fresh)).toBe(path.join(root, "repo2"));
    expect(resolveRepoRoot(" /configured ", fresh)).toBe("/configured");
  });
});

describe("formatCurrentTime", () => {
  it("formats the local date, weekday and offset, and falls back to UTC for an unknown zone", () => {
    const now = new Date("2026-07-01T23:30:00Z");
    expect(formatCurrentTime(now, "America/New_York")).toBe("2026-07-01 19:30 Wednesday, time zone America/New_York (UTC-04:00)");
    expect(formatCurrentTime(now, "Asia/Tokyo")).toBe("2026-07-02 08:30 Thursday, time zone Asia/Tokyo (UTC+09:00)");
    expect(formatCurrentTime(now, "UTC")).toBe("2026-07-01 23:30 Wednesday, time zone UTC (UTC+00:00)");
    expect(formatCurrentTime(now, "Not/AZone")).toBe("2026-07-01 23:30 Wednesday, time zone UTC (UTC+00:00)");
  });

  it("reads the host's zone from the Date getters, as Intl would format it, across DST changes and half-hour offsets", () => {
    const saved = process.env.TZ;
    try {
      for (const zone of ["America/New_York", "Europe/Berlin", "Australia/Adelaide", "Asia/Kolkata", "America/St_Johns", "UTC"]) {
        // Node resets V8's zone cache when TZ is assigned.
        process.env.TZ = zone;
        for (let t = Date.UTC(2026, 0, 1, 0, 7); t < Date.UTC(2027, 0, 1); t += 7 * 86_400_000 + 3_599_000) {
          const now = new Date(t);
          expect(localClockParts(now), `${zone} at ${now.toISOString()}`).toEqual(zoneClockParts(now, zone));
        }
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it("formats the host's zone without building an Intl formatter", () => {
    const zone = hostTimeZone();
    const built = vi.spyOn(Intl, "DateTimeFormat");
    try {
      expect(formatCurrentTime(new Date("2030-02-03T04:05:00Z"), zone)).toMatch(/^2030-02-0[2-4] \d\d:\d\d \w+day, time zone \S+ \(UTC[+-]\d\d:\d\d\)$/);
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
  });
});
