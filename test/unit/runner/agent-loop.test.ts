import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { runAgentLoop, type AgentLoopInput } from "../../../src/agents/runner/agent-loop.js";
import { toModelMessages } from "../../../src/agents/runner/model-messages.js";
import { toolText } from "../../../src/agents/tool-result.js";
import { CLIENT_TOOL_HANDOFF_RESULT, withClientTools } from "../../../src/agents/client-tools.js";
import type { AgentEvent, AgentTool, AssistantMessage, ModelRequest, ModelStreamEvent, ResolvedModel, StreamModelFn } from "../../../src/agents/types.js";

const model: ResolvedModel = { ref: "t/m", provider: "t", id: "m", api: "openai-completions", contextWindow: 1000, maxTokens: 100, reasoning: false, input: ["text"] };
type Step = { text?: string; calls?: { name: string; arguments: Record<string, unknown> }[]; error?: string; hangMs?: number };

/** A scripted provider: each model request takes the next step. */
function scripted(steps: Step[]): { stream: StreamModelFn; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  const stream: StreamModelFn = async function* (request, signal) {
    requests.push(structuredClone(request));
    const step = steps.shift() ?? { text: "done" };
    const message: AssistantMessage = { role: "assistant", content: [], timestamp: 0, usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } };
    if (step.hangMs) {
      await new Promise((resolve) => {
        const t = setTimeout(resolve, step.hangMs);
        signal.addEventListener(
          "abort",
          () => {
            clearTimeout(t);
            resolve(undefined);
          },
          { once: true },
        );
      });
      if (signal.aborted) {
        yield { type: "error", kind: "aborted", error: "aborted", retryable: false, message } satisfies ModelStreamEvent;
        return;
      }
    }
    if (step.error) {
      yield { type: "error", kind: "server", error: step.error, retryable: true, message };
      return;
    }
    if (step.text) {
      for (const part of step.text.match(/.{1,3}/g) ?? []) yield { type: "text_delta", delta: part };
      message.content.push({ type: "text", text: step.text });
    }
    step.calls?.forEach((c, i) => message.content.push({ type: "toolCall", id: `call_${requests.length}_${i}`, name: c.name, arguments: c.arguments }));
    yield { type: "done", stopReason: step.calls?.length ? "toolUse" : "stop", message };
  };
  return { stream, requests };
}

const echoTool: AgentTool = {
  name: "echo",
  description: "echo",
  parameters: Type.Object({ value: Type.String() }),
  execute: async (args: any) => toolText(`echo:${args.value}`),
};

function input(stream: StreamModelFn, overrides: Partial<AgentLoopInput> = {}): AgentLoopInput & { events: AgentEvent[] } {
  const events: AgentEvent[] = [];
  return {
    runId: "r1",
    model,
    systemPrompt: "sys",
    history: [],
    prompt: { role: "user", content: "hi", timestamp: 1 },
    tools: [echoTool],
    toolSpecs: [{ name: "echo", description: "echo", parameters: {} }],
    toolContext: { agentId: "main", workspaceDir: "/tmp", senderIsOwner: true, services: {} },
    streamModel: stream,
    emit: (e) => events.push(e),
    events,
    ...overrides,
  };
}

describe("runAgentLoop", () => {
  it("a client tool's call ends the run with the call for the caller; the turn's own tools in the same message still run", async () => {
    const { stream, requests } = scripted([
      {
        text: "Checking.",
        calls: [
          { name: "echo", arguments: { value: "x" } },
          { name: "get_weather", arguments: { city: "Oslo" } },
        ],
      },
    ]);
    const { tools, specs } = withClientTools([echoTool], [{ name: "echo", description: "echo", parameters: {} }], [{ name: "get_weather" }], model);
    const result = await runAgentLoop(input(stream, { tools, toolSpecs: specs }));
    expect(requests).toHaveLength(1);
    expect(requests[0]!.tools.map((t) => t.name)).toEqual(["echo", "get_weather"]);
    expect(result.stopReason).toBe("toolUse");
    expect(result.payloads).toEqual([{ text: "Checking." }]);
    expect(result.clientToolCalls).toEqual([{ id: "call_1_1", name: "get_weather", arguments: { city: "Oslo" } }]);
    // Both calls have a result in the transcript: the echo's own, and the hand-off's.
    const results = result.messages.filter((m) => m.role === "toolResult");
    expect(results.map((m) => [m.toolName, (m.content[0] as { text: string }).text])).toEqual([
      ["echo", "echo:x"],
      ["get_weather", CLIENT_TOOL_HANDOFF_RESULT],
    ]);
  });

  it("a successful call of an endsRun tool ends the run after its round, answering with the text beside it; a refused one does not", async () => {
    let waiting = false;
    const waitTool: AgentTool = {
      name: "wait",
      description: "wait",
      parameters: Type.Object({}),
      endsRun: true,
      execute: async () => (waiting ? toolText("waiting") : { content: [{ type: "text", text: "nothing to wait for" }], isError: true }),
    };
    const tools = [echoTool, waitTool];
    const toolSpecs = tools.map((t) => ({ name: t.name, description: t.description, parameters: {} }));

    const refused = scripted([{ calls: [{ name: "wait", arguments: {} }] }, { text: "answered instead" }]);
    const first = await runAgentLoop(input(refused.stream, { tools, toolSpecs }));
    expect(refused.requests).toHaveLength(2);
    expect(first.payloads).toEqual([{ text: "answered instead" }]);

    waiting = true;
    const accepted = scripted([
      {
        text: "Started; back soon.",
        calls: [
          { name: "wait", arguments: {} },
          { name: "echo", arguments: { value: "after" } },
        ],
      },
      { text: "never asked" },
    ]);
    const second = await runAgentLoop(input(accepted.stream, { tools, toolSpecs }));
    expect(accepted.requests).toHaveLength(1);
    expect(second.stopReason).toBe("stop");
    expect(second.payloads).toEqual([{ text: "Started; back soon." }]);
    // The round's other calls still ran: every call has its result in the transcript.
    expect(second.messages.filter((m) => m.role === "toolResult").map((m) => (m.content[0] as { text: string }).text)).toEqual(["waiting", "echo:after"]);
  });

  it("answers a text turn with events in order", async () => {
    const { stream } = scripted([{ text: "hello there" }]);
    const inp = input(stream);
    const result = await runAgentLoop(inp);
    expect(result.payloads).toEqual([{ text: "hello there" }]);
    expect(result.stopReason).toBe("stop");
    expect(result.usage).toEqual({ input: 10, output: 5, cacheRead: 0, cacheWrite: 0 });
    const types = inp.events.map((e) => e.type);
    expect(types[0]).toBe("agent_start");
    expect(types[1]).toBe("message_start");
    expect(types.filter((t) => t === "message_update").length).toBe(4);
    expect(types.slice(-2)).toEqual(["message_end", "agent_end"]);
  });

  it("runs tool calls, feeds results back, and finishes with text", async () => {
    const { stream, requests } = scripted([
      {
        calls: [
          { name: "echo", arguments: { value: "a" } },
          { name: "echo", arguments: { value: "b" } },
        ],
      },
      { text: "got both" },
    ]);
    const inp = input(stream);
    const result = await runAgentLoop(inp);
    expect(result.payloads).toEqual([{ text: "got both" }]);
    expect(requests).toHaveLength(2);
    const second = requests[1]!.messages;
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
    expect((second[2] as any).content[0].text).toBe("echo:a");
    expect(inp.events.filter((e) => e.type === "tool_execution_end")).toHaveLength(2);
    expect(result.messages.map((m) => m.role)).toEqual(["assistant", "toolResult", "toolResult", "assistant"]);
  });

  it("turns unknown tools, invalid arguments and throwing tools into errors the model sees", async () => {
    const thrower: AgentTool = {
      name: "boom",
      description: "",
      parameters: Type.Object({}),
      execute: async () => {
        throw new Error("kaput");
      },
    };
    const { stream, requests } = scripted([
      {
        calls: [
          { name: "nope", arguments: {} },
          { name: "echo", arguments: { value: 3 } },
          { name: "boom", arguments: {} },
        ],
      },
      { text: "recovered" },
    ]);
    const result = await runAgentLoop(input(stream, { tools: [echoTool, thrower] }));
    expect(result.payloads).toEqual([{ text: "recovered" }]);
    const results = requests[1]!.messages.filter((m) => m.role === "toolResult") as any[];
    expect(results.map((r) => JSON.parse(r.content[0].text).error)).toEqual(["UNKNOWN_TOOL", "INVALID_ARGUMENT", "TOOL_FAILED"]);
    expect(results.every((r) => r.isError)).toBe(true);
  });

  it("a NO_REPLY answer is silent", async () => {
    const { stream } = scripted([{ text: "  no_reply " }]);
    const result = await runAgentLoop(input(stream));
    expect(result.payloads).toEqual([]);
    expect(result.stopReason).toBe("stop");
  });

  it("a provider error ends the run with the error, not a throw", async () => {
    const { stream } = scripted([{ error: "HTTP 500 from provider" }]);
    const result = await runAgentLoop(input(stream));
    expect(result.stopReason).toBe("error");
    expect(result.error).toEqual({ kind: "server", message: "HTTP 500 from provider" });
  });

  it("abort stops a hanging model request and a running tool", async () => {
    const controller = new AbortController();
    const { stream } = scripted([{ hangMs: 10_000 }]);
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const result = await runAgentLoop(input(stream, { signal: controller.signal }));
    expect(result.stopReason).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(2_000);

    let toolSawAbort = false;
    const slow: AgentTool = {
      name: "slow",
      description: "",
      parameters: Type.Object({}),
      execute: (_a, _c, signal) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => {
            toolSawAbort = true;
            resolve(toolText("stopped"));
          }),
        ),
    };
    const c2 = new AbortController();
    const s2 = scripted([
      {
        calls: [
          { name: "slow", arguments: {} },
          { name: "echo", arguments: { value: "x" } },
        ],
      },
    ]);
    setTimeout(() => c2.abort(), 50);
    const r2 = await runAgentLoop(input(s2.stream, { tools: [slow, echoTool], signal: c2.signal }));
    expect(toolSawAbort).toBe(true);
    expect(r2.stopReason).toBe("aborted");
    // Every call still has a result in the transcript.
    expect(r2.messages.filter((m) => m.role === "toolResult")).toHaveLength(2);
  });

  it("the run timeout ends the run with stop reason timeout", async () => {
    const { stream } = scripted([{ hangMs: 10_000 }]);
    const result = await runAgentLoop(input(stream, { timeoutMs: 60 }));
    expect(result.stopReason).toBe("timeout");
    expect(result.error?.kind).toBe("timeout");
  });

  it("with the caller's controller, stops when the caller aborts it, and aborts it itself when the run times out", async () => {
    const caller = new AbortController();
    const seen: AbortSignal[] = [];
    const { stream } = scripted([{ hangMs: 10_000 }]);
    const watching: StreamModelFn = (request, signal) => {
      seen.push(signal);
      return stream(request, signal);
    };
    setTimeout(() => caller.abort(new Error("stop")), 30);
    const stopped = await runAgentLoop(input(watching, { controller: caller, timeoutMs: 10_000 }));
    expect(stopped.stopReason).toBe("aborted");
    // The model call got the caller's signal itself, not one following it.
    expect(seen).toEqual([caller.signal]);

    const timed = new AbortController();
    const late = scripted([{ hangMs: 10_000 }]);
    const result = await runAgentLoop(input(late.stream, { controller: timed, timeoutMs: 60 }));
    expect(result.stopReason).toBe("timeout");
    expect(timed.signal.aborted).toBe(true);
    expect((timed.signal.reason as Error).message).toBe("run timed out");
  });

  it("hooks can block a call, add a reminder, and stop the run", async () => {
    const { stream, requests } = scripted([
      { calls: [{ name: "echo", arguments: { value: "blocked" } }] },
      { calls: [{ name: "echo", arguments: { value: "ok" } }] },
      { calls: [{ name: "echo", arguments: { value: "last" } }] },
      { text: "never" },
    ]);
    let afterCount = 0;
    const result = await runAgentLoop(
      input(stream, {
        hooks: [
          {
            beforeToolCall: (call) => (call.arguments.value === "blocked" ? { action: "block", reason: "not allowed here" } : { action: "run" }),
            afterToolCall: (_call, result) => {
              afterCount += 1;
              return afterCount === 1 ? { result, reminder: "you are repeating yourself" } : { result, stop: "loop cap reached" };
            },
          },
        ],
      }),
    );
    const blocked = requests[1]!.messages.at(-1) as any;
    expect(JSON.parse(blocked.content[0].text)).toMatchObject({ error: "TOOL_BLOCKED", message: "not allowed here" });
    const reminded = requests[2]!.messages.at(-1) as any;
    expect(reminded.content.at(-1).text).toBe("you are repeating yourself");
    expect(result.stopReason).toBe("loop");
    expect(result.error).toEqual({ kind: "loop", message: "loop cap reached" });
    expect(requests).toHaveLength(3);
  });

  it("only user, assistant and toolResult reach the model, stripped of extra fields", async () => {
    const { stream, requests } = scripted([{ text: "ok" }]);
    await runAgentLoop(
      input(stream, {
        history: [
          { role: "user", content: "earlier", timestamp: 1, id: "m1", provenance: { kind: "external_user" } },
          { role: "system_event", text: "internal" },
          { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "echo", arguments: { value: "z" } }], timestamp: 2 },
        ],
      }),
    );
    const sent = requests[0]!.messages;
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
    expect(Object.keys(sent[0]!).sort()).toEqual(["content", "role", "timestamp"]);
    expect(JSON.parse((sent[2] as any).content[0].text).error).toBe("TOOL_INTERRUPTED");
  });

  it("toModelMessages drops results without calls and empty assistant turns", () => {
    const out = toModelMessages([
      { role: "toolResult", toolCallId: "x", toolName: "echo", content: [], isError: false, timestamp: 1 },
      { role: "assistant", content: [], timestamp: 2 },
      { role: "user", content: "hi", timestamp: 3 },
    ]);
    expect(out.map((m) => m.role)).toEqual(["user"]);
  });
});

describe("steering", () => {
  it("injects queued user messages at the next model boundary and skips unstarted tool calls", async () => {
    const queue: any[] = [];
    let echoRuns = 0;
    const countingEcho: AgentTool = {
      ...echoTool,
      execute: async (a: any) => {
        echoRuns += 1;
        queue.push({ role: "user", content: "actually, stop and say hi", timestamp: 5 });
        return toolText(`echo:${a.value}`);
      },
    };
    const { stream, requests } = scripted([
      {
        calls: [
          { name: "echo", arguments: { value: "first" } },
          { name: "echo", arguments: { value: "second" } },
        ],
      },
      { text: "hi!" },
    ]);
    const result = await runAgentLoop(
      input(stream, {
        tools: [countingEcho],
        steering: { pending: () => queue.length > 0, take: () => queue.splice(0) },
      }),
    );
    expect(echoRuns).toBe(1);
    const second = requests[1]!.messages;
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "user"]);
    expect((second[3] as any).content[0].text).toBe("Skipped due to queued user message.");
    expect((second[4] as any).content).toBe("actually, stop and say hi");
    expect(result.messages.filter((m) => m.role === "user")).toHaveLength(1);
    expect(result.payloads).toEqual([{ text: "hi!" }]);
  });
});

describe("context overflow recovery", () => {
  /** A provider that overflows on the calls listed (0-based), answering normally otherwise. */
  function overflowing(overflowAt: number[], steps: Step[]): { stream: StreamModelFn; requests: ModelRequest[] } {
    const inner = scripted(steps);
    const requests: ModelRequest[] = [];
    const stream: StreamModelFn = async function* (request, signal) {
      const n = requests.length;
      requests.push(structuredClone(request));
      if (overflowAt.includes(n)) {
        yield { type: "error", kind: "context_length", error: "prompt is too long", retryable: false, message: { role: "assistant", content: [], timestamp: 0 } };
        return;
      }
      yield* inner.stream(request, signal);
    };
    return { stream, requests };
  }
  const old = [
    { role: "user", content: "old question", timestamp: 0 },
    { role: "assistant", content: [{ type: "text", text: "old answer" }], timestamp: 0 },
  ] as const;

  it("retries once with the recovered history and keeps the run's own messages after the prompt", async () => {
    const { stream, requests } = overflowing([1], [{ calls: [{ name: "echo", arguments: { value: "a" } }] }, { text: "final" }]);
    const appended: string[] = [];
    let runMessagesSeen = -1;
    const result = await runAgentLoop(
      input(stream, {
        history: [...old],
        onAppend: (m) => appended.push(m.role),
        recoverOverflow: async (runMessages) => {
          runMessagesSeen = runMessages;
          return [{ role: "user", content: "SUMMARY", timestamp: 0 }];
        },
      }),
    );
    expect(result.stopReason).toBe("stop");
    expect(result.payloads).toEqual([{ text: "final" }]);
    expect(runMessagesSeen).toBe(2);
    const retried = requests[2]!.messages.map((m) => `${m.role}:${JSON.stringify(m.content).slice(0, 20)}`);
    expect(retried[0]).toContain("SUMMARY");
    expect(requests[2]!.messages.map((m) => m.role)).toEqual(["user", "user", "assistant", "toolResult"]);
    // The overflowed attempt left no message behind.
    expect(appended).toEqual(["assistant", "toolResult", "assistant"]);
  });

  it("fails the run when recovery gives nothing, or when the retry overflows again", async () => {
    const none = overflowing([0], []);
    const declined = await runAgentLoop(input(none.stream, { recoverOverflow: async () => undefined }));
    expect(declined.error?.kind).toBe("context_length");
    expect(none.requests).toHaveLength(1);

    const twice = overflowing([0, 1], []);
    let recoveries = 0;
    const failed = await runAgentLoop(input(twice.stream, { history: [...old], recoverOverflow: async () => (recoveries++, []) }));
    expect(failed.error?.kind).toBe("context_length");
    expect(recoveries).toBe(1);
    expect(twice.requests).toHaveLength(2);
  });
});
