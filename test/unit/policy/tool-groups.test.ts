import { describe, expect, it } from "vitest";
import {
  compileToolList,
  expandToolNames,
  isBuiltInTool,
  normalizeToolName,
  OWNER_ONLY_TOOLS,
  profileAllowList,
  TOOL_GROUPS,
  TOOL_PROFILE_NAMES,
} from "../../../src/agents/policy/index.js";
import { SANDBOX_DEFAULT_DENY } from "../../../src/agents/policy/sandbox-tool-defaults.js";

describe("expandToolNames", () => {
  it.each([
    { list: ["group:fs"], expected: ["read", "write", "edit", "apply_patch"] },
    { list: ["group:runtime"], expected: ["exec", "process", "code_execution"] },
    { list: ["group:web"], expected: ["web_search", "x_search", "web_fetch"] },
    { list: ["group:memory"], expected: ["memory_search", "memory_get"] },
    { list: ["group:ui"], expected: ["browser", "canvas"] },
    { list: ["group:automation"], expected: ["cron", "gateway", "heartbeat_respond"] },
    { list: ["group:messaging"], expected: ["message"] },
    { list: ["group:nodes"], expected: ["nodes", "computer"] },
    // case-insensitive group names and tool names, duplicates dropped, first-seen order kept
    { list: ["Group:FS", "READ", "exec"], expected: ["read", "write", "edit", "apply_patch", "exec"] },
    // aliases fold onto the canonical tool
    { list: ["bash", "apply-patch"], expected: ["exec", "apply_patch"] },
    // wildcards cannot be expanded without a tool set: they stay as patterns
    { list: ["memory_*"], expected: ["memory_*"] },
    // unknown groups and group:plugins are kept verbatim so callers can report / evaluate them
    { list: ["group:nope", "group:plugins"], expected: ["group:nope", "group:plugins"] },
  ])("$list", ({ list, expected }) => {
    expect(expandToolNames(list)).toEqual(expected);
  });

  it("group:sessions holds the session tools", () => {
    expect(expandToolNames(["group:sessions"])).toEqual(
      expect.arrayContaining(["sessions_list", "sessions_history", "sessions_search", "sessions_send", "sessions_spawn", "sessions_yield", "subagents", "session_status"]),
    );
  });

  it("group:openclaw is every built-in except the fs/runtime primitives and canvas", () => {
    const openclaw = expandToolNames(["group:openclaw"]);
    expect(openclaw).toEqual(expect.arrayContaining(["web_search", "memory_get", "sessions_spawn", "message", "cron", "gateway", "browser", "nodes", "image"]));
    for (const primitive of ["read", "write", "edit", "apply_patch", "exec", "process", "code_execution", "canvas"]) {
      expect(openclaw).not.toContain(primitive);
    }
  });

  it("every group member is itself a name, a wildcard or a known group", () => {
    for (const members of Object.values(TOOL_GROUPS)) {
      for (const member of members) expect(member).toMatch(/^(group:[a-z]+|[a-z_*]+)$/);
    }
  });
});

describe("compileToolList", () => {
  it.each([
    { entries: ["exec"], tool: "exec", match: "exec" },
    { entries: ["EXEC"], tool: "Exec", match: "EXEC" },
    { entries: ["exec"], tool: "bash", match: "exec" },
    { entries: ["memory_*"], tool: "memory_search", match: "memory_*" },
    { entries: ["memory_*"], tool: "memory", match: undefined },
    { entries: ["*"], tool: "anything_at_all", match: "*" },
    { entries: ["*_search"], tool: "web_search", match: "*_search" },
    { entries: ["group:runtime"], tool: "process", match: "group:runtime" },
    { entries: ["group:sessions"], tool: "conversations_list", match: "group:sessions" },
    { entries: ["group:plugins"], tool: "mcp_github_search", match: "group:plugins" },
    { entries: ["group:plugins"], tool: "read", match: undefined },
    { entries: ["group:nope"], tool: "read", match: undefined },
    { entries: ["read", "group:fs"], tool: "read", match: "read" },
  ])("$entries vs $tool → $match", ({ entries, tool, match }) => {
    expect(compileToolList(entries).matchOf(tool)).toBe(match);
  });

  it("reports unknown groups", () => {
    expect(compileToolList(["group:fs", "group:nope"]).unknownGroups).toEqual(["group:nope"]);
  });
});

describe("names and profiles", () => {
  it("normalizes case, whitespace and aliases", () => {
    expect(normalizeToolName("  Read ")).toBe("read");
    expect(normalizeToolName("BASH")).toBe("exec");
    expect(normalizeToolName("automations")).toBe("cron");
  });

  it("knows built-ins from plugin tools", () => {
    expect(isBuiltInTool("read")).toBe(true);
    expect(isBuiltInTool("Canvas")).toBe(true);
    expect(isBuiltInTool("mcp_github_search")).toBe(false);
  });

  it("profiles name only built-in tools, groups and bundle-mcp (the MCP servers' tools)", () => {
    for (const profile of TOOL_PROFILE_NAMES) {
      for (const entry of profileAllowList(profile) ?? []) {
        if (entry === "bundle-mcp") continue;
        if (entry.startsWith("group:")) expect(Object.keys(TOOL_GROUPS)).toContain(entry);
        else expect(isBuiltInTool(entry.replace("*", "x")), entry).toBe(true);
      }
    }
  });

  it("profiles: minimal is session_status only; full restricts nothing", () => {
    expect(profileAllowList("minimal")).toEqual(["session_status"]);
    expect(profileAllowList("full")).toBeUndefined();
    expect(profileAllowList("coding")).toEqual(expect.arrayContaining(["group:fs", "group:runtime", "group:web", "group:sessions", "group:memory", "cron"]));
    expect(profileAllowList("messaging")).toEqual(
      expect.arrayContaining(["group:messaging", "sessions_list", "sessions_history", "sessions_search", "sessions_send", "session_status"]),
    );
  });
  it("tts is where OpenClaw puts it: group:media (so group:openclaw) and the coding profile, not messaging or minimal", () => {
    expect(expandToolNames(["group:media"])).toContain("tts");
    expect(expandToolNames(["group:openclaw"])).toContain("tts");
    expect(isBuiltInTool("tts")).toBe(true);
    expect(compileToolList(profileAllowList("coding")!).matchOf("tts")).toBe("group:media");
    expect(compileToolList(profileAllowList("messaging")!).matchOf("tts")).toBeUndefined();
    expect(compileToolList(profileAllowList("minimal")!).matchOf("tts")).toBeUndefined();
  });

  it("image_generate is where OpenClaw puts it: group:media (so group:openclaw) and the coding profile, not messaging or minimal", () => {
    expect(expandToolNames(["group:media"])).toContain("image_generate");
    expect(expandToolNames(["group:openclaw"])).toContain("image_generate");
    expect(isBuiltInTool("image_generate")).toBe(true);
    expect(compileToolList(profileAllowList("coding")!).matchOf("image_generate")).toBe("group:media");
    expect(compileToolList(profileAllowList("messaging")!).matchOf("image_generate")).toBeUndefined();
    expect(compileToolList(profileAllowList("minimal")!).matchOf("image_generate")).toBeUndefined();
  });
  it("browser is where OpenClaw puts it: group:ui and group:openclaw, in no profile but full (coding adds it with alsoAllow), owner-only here, denied by the sandbox's defaults", () => {
    expect(expandToolNames(["group:ui"])).toContain("browser");
    expect(expandToolNames(["group:openclaw"])).toContain("browser");
    expect(isBuiltInTool("browser")).toBe(true);
    for (const profile of ["coding", "messaging", "minimal"] as const) expect(compileToolList(profileAllowList(profile)!).matchOf("browser")).toBeUndefined();
    expect(profileAllowList("full")).toBeUndefined();
    expect(OWNER_ONLY_TOOLS).toContain("browser");
    expect(SANDBOX_DEFAULT_DENY).toContain("browser");
  });
  it("progress_card is where OpenClaw puts it: group:agents (so group:openclaw) and the coding profile; update_plan names it too", () => {
    expect(expandToolNames(["group:agents"])).toEqual(["agents_list", "get_goal", "create_goal", "update_goal", "progress_card"]);
    expect(expandToolNames(["group:openclaw"])).toContain("progress_card");
    expect(isBuiltInTool("progress_card")).toBe(true);
    expect(compileToolList(profileAllowList("coding")!).matchOf("progress_card")).toBe("progress_card");
    expect(compileToolList(profileAllowList("messaging")!).matchOf("progress_card")).toBeUndefined();
    expect(compileToolList(profileAllowList("minimal")!).matchOf("progress_card")).toBeUndefined();
    expect(normalizeToolName("update_plan")).toBe("progress_card");
    // The goal tools sit with it (OpenClaw's tool policy table).
    for (const name of ["get_goal", "create_goal", "update_goal"]) {
      expect(isBuiltInTool(name)).toBe(true);
      expect(compileToolList(profileAllowList("coding")!).matchOf(name)).toBe(name);
      expect(compileToolList(profileAllowList("messaging")!).matchOf(name)).toBeUndefined();
    }
    expect(compileToolList(["update_plan"]).matchOf("progress_card")).toBe("update_plan");
  });
});
