import { Type } from "@sinclair/typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAgentLoop } from "../../../src/agents/runner/agent-loop.js";
import { toolText } from "../../../src/agents/tool-result.js";
import type { AgentTool } from "../../../src/agents/types.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
import { fakeModel } from "../models/stream-helpers.js";
import { PROVIDER_STREAMS } from "../models/provider-streams.js";

/** Broken tool-call JSON from the model goes back to it as a tool error; the turn goes on. */

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

describe.each(PROVIDER_STREAMS)("$api", ({ api, stream }) => {
  it("a tool call with arguments that are not JSON is answered with an error the model sees, and the turn finishes", async () => {
    server.reset();
    let ran = 0;
    const echo: AgentTool = {
      name: "echo",
      description: "echo",
      parameters: Type.Object({ value: Type.String() }),
      execute: async (args: any) => (ran++, toolText(`echo:${args.value}`)),
    };
    server.enqueue({ toolCalls: [{ id: "call_bad", name: "echo", arguments: '{"value": "unterminated' }] }, { text: "I fixed my call" });
    const result = await runAgentLoop({
      runId: "r1",
      model: fakeModel(server, api),
      systemPrompt: "sys",
      history: [],
      prompt: { role: "user", content: "hi", timestamp: 1 },
      tools: [echo],
      toolSpecs: [{ name: "echo", description: "echo", parameters: { type: "object", properties: { value: { type: "string" } } } }],
      toolContext: { agentId: "main", workspaceDir: "/tmp", senderIsOwner: true, services: {} },
      streamModel: stream,
      emit: () => {},
    });
    expect(result.stopReason).toBe("stop");
    expect(result.payloads).toEqual([{ text: "I fixed my call" }]);
    expect(ran).toBe(0);
    const toolResult = result.messages.find((m) => m.role === "toolResult") as any;
    expect(toolResult.isError).toBe(true);
    const error = JSON.parse(toolResult.content[0].text);
    expect(error.error).toBe("INVALID_ARGUMENT");
    expect(error.message).toMatch(/^the echo call's arguments are not valid JSON .*; it did not run$/);
    expect(server.requests).toHaveLength(2);
  });
});
