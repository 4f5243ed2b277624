import { describe, expect, it } from "vitest";
import { toolLabel, toolProgressDetailFor } from "../../../src/agents/tool-labels.js";
import { toolSummaryText } from "../../../src/agents/tool-summaries.js";
import { defaultConfig } from "../../../src/config/index.js";
import type { ModelMessage } from "../../../src/agents/types.js";

const explain = { commandText: "status", detail: "explain" } as const;
const raw = { commandText: "status", detail: "raw" } as const;

describe("tool labels", () => {
  it("explain: an icon, the tool and what it works on; a shell command only with commandText raw", () => {
    expect(toolLabel("read", { path: "notes/a.md" }, explain)).toBe("📖 Read: notes/a.md");
    expect(toolLabel("web_search", { query: "tide times", count: 3 }, explain)).toBe('🔎 Web Search: for "tide times"');
    expect(toolLabel("sessions_search", { query: "locker number" }, explain)).toBe('🔎 Sessions Search: for "locker number"');
    expect(toolLabel("x_search", { query: "dinner recipes", allowed_x_handles: ["nytfood"] }, explain)).toBe('🔎 X Search: for "dinner recipes"');
    expect(toolLabel("code_execution", { task: "mean of 1, 2,   3" }, explain)).toBe('🧮 Code Execution: "mean of 1, 2, 3"');
    expect(toolLabel("sessions_spawn", { task: "secret plan" }, explain)).toBe("🛠️ Sessions Spawn");
    expect(toolLabel("image_generate", { prompt: "a red   robot", size: "1024x1024" }, explain)).toBe('🎨 Image Generate: "a red robot"');
    expect(toolLabel("image_generate", { prompt: "x".repeat(100) }, explain)).toBe(`🎨 Image Generate: "${"x".repeat(79)}…"`);
    expect(toolLabel("tts", { text: "Hello   there" }, explain)).toBe('🔊 Tts: "Hello there"');
    expect(toolLabel("browser", { action: "open", url: "https://example.com/login" }, explain)).toBe("🧭 Browser: open https://example.com/login");
    // What is typed (a password, perhaps) stays out of the label.
    expect(toolLabel("browser", { action: "act", kind: "type", ref: "e5", text: "hunter2" }, explain)).toBe("🧭 Browser: act type e5");
    expect(toolLabel("browser", {}, explain)).toBe("🧭 Browser");
    expect(toolLabel("exec", { command: "npm test" }, explain)).toBe("💻 Exec");
    expect(toolLabel("exec", { command: "npm  test" }, { commandText: "raw", detail: "explain" })).toBe("💻 Exec: npm test");
  });

  it("raw: the label and the arguments as JSON, cut at 300 characters; never a shell command without commandText raw", () => {
    expect(toolLabel("sessions_spawn", { task: "write the report" }, raw)).toBe('🛠️ Sessions Spawn · {"task":"write the report"}');
    expect(toolLabel("read", { path: "a.md", offset: 10 }, raw)).toBe('📖 Read: a.md · {"path":"a.md","offset":10}');
    expect(toolLabel("exec", { command: "rm -rf build" }, raw)).toBe("💻 Exec");
    expect(toolLabel("session_status", {}, raw)).toBe("🛠️ Session Status");
    const long = toolLabel("write", { path: "x", content: "y".repeat(1000) }, raw);
    expect(long.length).toBeLessThan(340);
    expect(long.endsWith("…")).toBe(true);
  });

  it("the agent's own detail wins over the defaults', and explain is the default", () => {
    const config = defaultConfig();
    expect(toolProgressDetailFor(config, "main")).toBe("explain");
    config.agents.defaults.toolProgressDetail = "raw";
    expect(toolProgressDetailFor(config, "main")).toBe("raw");
    config.agents.entries = { main: { toolProgressDetail: "explain" } } as never;
    expect(toolProgressDetailFor(config, "main")).toBe("explain");
  });
});

describe("/verbose tool summaries", () => {
  const messages = [
    {
      role: "assistant",
      content: [
        { type: "toolCall", id: "1", name: "read", arguments: { path: "AGENTS.md" } },
        { type: "toolCall", id: "2", name: "exec", arguments: { command: "ls -la" } },
      ],
    },
    { role: "toolResult", toolCallId: "1", toolName: "read", content: [{ type: "text", text: "# Agents\n\nrules" }], isError: false },
    { role: "toolResult", toolCallId: "2", toolName: "exec", content: [{ type: "text", text: "denied" }], isError: true },
  ] as unknown as ModelMessage[];

  it("on: the labels, no shell command; full: the command and each result's start; off: nothing", () => {
    expect(toolSummaryText(messages, "on", "explain")).toBe("📖 Read: AGENTS.md\n💻 Exec");
    expect(toolSummaryText(messages, "full", "explain")).toBe("📖 Read: AGENTS.md\n   → # Agents rules\n💻 Exec: ls -la\n   → ⚠️ denied");
    expect(toolSummaryText(messages, "on", "raw")).toBe('📖 Read: AGENTS.md · {"path":"AGENTS.md"}\n💻 Exec');
    expect(toolSummaryText(messages, "off", "raw")).toBe("");
  });
});
