import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { lastMessageOf } from "../helpers/model-request.js";
import { fakeAgentCommand } from "../helpers/acp-agent.js";
import { askAndWait, chatHistory, messageText } from "../helpers/chat-session.js";

/** ACP agents run on the host: a sandboxed session may not start one (as in OpenClaw), by tool or by /acp spawn. */
const fakes = useFakeModelGateway({
  operator: true,
  extra: (dir) => ({
    acp: { enabled: true, defaultAgent: "fake", agents: { fake: fakeAgentCommand("--log", path.join(dir, "agent.log")) } },
    agents: { defaults: { workspace: path.join(dir, "workspace"), model: { primary: "fake/fake-model" }, sandbox: { mode: "non-main", backend: "bwrap" } } },
  }),
});

const acpSessions = () => {
  const file = path.join(fakes.stateDir, "acp", "sessions.json");
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")).sessions : [];
};

describe("ACP spawns from a sandboxed session", () => {
  it("sessions_spawn runtime acp is refused with the reason and a way forward, and nothing starts", async () => {
    fakes.model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text === "go") return { toolCalls: [{ name: "sessions_spawn", arguments: { runtime: "acp", task: "x #echo" } }] };
      return { text: "done" };
    });
    await askAndWait(fakes.sock, "acp-sandboxed", "go");
    const results = (await chatHistory(fakes.sock, "acp-sandboxed")).filter((m) => m.role === "toolResult" || m.role === "tool_result" || m.role === "tool");
    expect(JSON.parse(messageText(results[0]))).toEqual({
      error: "SANDBOX_UNAVAILABLE",
      message: "This session runs sandboxed (sandbox.mode is non-main and this is not the agent's main session); ACP agents run on the host, outside any sandbox.",
      suggestion: 'Spawn with runtime "subagent", or start the ACP agent from a session that is not sandboxed.',
    });
    expect(acpSessions()).toEqual([]);
  }, 30_000);

  it("/acp spawn there is refused the same way", async () => {
    const res = await fakes.sock.request("chat.send", { sessionKey: "acp-sandboxed-cmd", message: "/acp spawn fake x #echo", idempotencyKey: `cmd-${Date.now()}` });
    expect(res.payload.reply).toBe(
      '⚠️ This session runs sandboxed (sandbox.mode is non-main and this is not the agent\'s main session); ACP agents run on the host, outside any sandbox. Spawn with runtime "subagent", or start the ACP agent from a session that is not sandboxed.',
    );
    expect(acpSessions()).toEqual([]);
  });
});
