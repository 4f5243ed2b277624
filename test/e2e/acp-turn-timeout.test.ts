import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { lastMessageOf } from "../helpers/model-request.js";
import { fakeAgentCommand } from "../helpers/acp-agent.js";
import { announcementsIn, askAndWait, eventually, messageText } from "../helpers/chat-session.js";

/**
 * `plugins.entries.acpx.config.timeoutSeconds` bounds the agent's start-up (as in OpenClaw), not
 * its work: a spawned child's turn is limited by `agents.defaults.subagents.runTimeoutSeconds`.
 */
const fakes = useFakeModelGateway({
  operator: true,
  extra: (dir) => ({
    acp: { enabled: true, defaultAgent: "fake", agents: { fake: fakeAgentCommand("--log", path.join(dir, "agent.log")) } },
    plugins: { entries: { acpx: { config: { timeoutSeconds: 5 } } } },
    agents: { defaults: { workspace: path.join(dir, "workspace"), model: { primary: "fake/fake-model" }, subagents: { runTimeoutSeconds: 10 } } },
  }),
});

function scriptParent(trigger: string, task: string) {
  fakes.model.setResponder((req) => {
    const last = lastMessageOf(req);
    if (last.role === "user" && last.text === trigger) return { toolCalls: [{ name: "sessions_spawn", arguments: { runtime: "acp", task } }] };
    return { text: last.role === "tool" ? "started" : "noted" };
  });
}

async function announcementOf(sessionKey: string): Promise<string> {
  const [announcement] = await eventually(async () => {
    const list = await announcementsIn(fakes.sock, sessionKey);
    expect(list).toHaveLength(1);
    return list;
  }, 20_000);
  return messageText(announcement);
}

describe("the turn limit of an ACP child", () => {
  it("a turn longer than acpx timeoutSeconds but within runTimeoutSeconds completes", async () => {
    scriptParent("go", "work #slow:6500 #echo");
    await askAndWait(fakes.sock, "acp-long-turn", "go");
    const text = await announcementOf("acp-long-turn");
    expect(text).toContain("status: completed successfully");
    expect(text).toContain("echo: work");
  }, 30_000);

  it("a turn longer than agents.defaults.subagents.runTimeoutSeconds is cancelled, and the announcement names that setting", async () => {
    scriptParent("go", "work #slow:30000");
    await askAndWait(fakes.sock, "acp-too-long", "go");
    const text = await announcementOf("acp-too-long");
    expect(text).toContain("status: timed out");
    const records = JSON.parse(fs.readFileSync(path.join(fakes.stateDir, "acp", "sessions.json"), "utf8")).sessions;
    expect(records.find((r: { lastError?: string }) => r.lastError?.includes("did not finish the turn"))?.lastError).toBe(
      "ACP agent `fake` did not finish the turn within 10 s (agents.defaults.subagents.runTimeoutSeconds); it was cancelled.",
    );
  }, 30_000);
});
