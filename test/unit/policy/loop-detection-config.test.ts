import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { createLoopDetector, loopDetectionFromConfig } from "../../../src/agents/loop-detection/index.js";
import { runToolCall } from "../../../src/agents/runner/run-tool-call.js";
import type { AgentTool, ToolCallBlock, ToolContext } from "../../../src/agents/types.js";

describe("loopDetectionFromConfig", () => {
  it("is on unless disabled", () => {
    expect(loopDetectionFromConfig({}, "main")).toEqual({ enabled: true, options: {} });
    expect(loopDetectionFromConfig({ tools: { loopDetection: { enabled: false } } }, "main").enabled).toBe(false);
  });

  it("reads seed 003's keys", () => {
    const config = { tools: { loopDetection: { enabled: true, maxConsecutiveCalls: 3, maxSameFileReads: 5 } } };
    expect(loopDetectionFromConfig(config, "main")).toEqual({ enabled: true, options: { repeatThreshold: 3, readThreshold: 5 } });
  });

  it("the agent's own loopDetection overrides key by key", () => {
    const config = {
      tools: { loopDetection: { enabled: true, maxConsecutiveCalls: 3, maxSameFileReads: 5 } },
      agents: {
        list: [
          { id: "coder", tools: { loopDetection: { maxSameFileReads: 8 } } },
          { id: "quiet", tools: { loopDetection: { enabled: false } } },
        ],
      },
    };
    expect(loopDetectionFromConfig(config, "coder")).toEqual({ enabled: true, options: { repeatThreshold: 3, readThreshold: 8 } });
    expect(loopDetectionFromConfig(config, "quiet").enabled).toBe(false);
  });

  it("ignores malformed values", () => {
    const config = { tools: { loopDetection: { enabled: "yes", maxConsecutiveCalls: 0, maxSameFileReads: 2.5 } } };
    expect(loopDetectionFromConfig(config, "main")).toEqual({ enabled: true, options: {} });
  });
});

describe("with the loop's runToolCall", () => {
  const ls: AgentTool = {
    name: "exec",
    description: "test double",
    parameters: Type.Object({ command: Type.String() }),
    execute: async () => ({ content: [{ type: "text", text: "a.txt" }] }),
  };
  const ctx: ToolContext = { agentId: "main", workspaceDir: "/tmp", senderIsOwner: true, services: {} };
  const call = (id: number): ToolCallBlock => ({ type: "toolCall", id: `c${id}`, name: "exec", arguments: { command: "ls" } });

  it("the reminder reaches the model; the hard cap ends the run", async () => {
    const hooks = [createLoopDetector()];
    const tools = new Map([["exec", ls]]);
    const outcomes = [];
    for (let i = 1; i <= 6; i += 1) outcomes.push(await runToolCall(call(i), tools, hooks, ctx, new AbortController().signal, () => {}));
    expect(outcomes[1]?.result.content).toHaveLength(1);
    expect(outcomes[2]?.result.content.at(-1)).toMatchObject({ type: "text", text: expect.stringContaining("[loop check]") });
    expect(outcomes[4]?.stop).toBeUndefined();
    expect(outcomes[5]?.stop).toContain("Stopped a tool loop");
  });
});
