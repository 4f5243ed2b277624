import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { isSubagentRequest, lastMessageOf } from "../helpers/model-request.js";
import { type Frame, openOperator } from "../helpers/ws-client.js";

/**
 * `task` events end to end (real gateway, fake model): a sub-agent spawn's task is broadcast as
 * `upserted` when it starts and when it ends, with the summary `tasks.get` answers, to operators
 * with operator.read and to no one else.
 */

const servers = useFakeServers();

/** The parent spawns a child for "spawn <task>"; the child answers once `childMayAnswer` resolves. */
function spawnResponder(childMayAnswer: Promise<void>) {
  return async (req: RecordedRequest) => {
    if (isSubagentRequest(req)) {
      await childMayAnswer;
      return { text: "child result: 7" };
    }
    const last = lastMessageOf(req);
    if (last.role === "user" && last.text.startsWith("spawn ")) {
      const task = last.text.slice("spawn ".length);
      return { toolCalls: [{ name: "sessions_spawn", arguments: { task, label: task } }] };
    }
    return { text: last.role === "tool" ? "started" : "noted" };
  };
}

const taskEvent = (match: (payload: Frame) => boolean) => (f: Frame) => f.type === "event" && f.event === "task" && match(f.payload);

describe("task events", { timeout: 60_000 }, () => {
  it("an operator sees a sub-agent task upserted at its start and its end; a client without operator.read sees none", async () => {
    let release!: () => void;
    const childMayAnswer = new Promise<void>((resolve) => (release = resolve));
    servers.model.setResponder(spawnResponder(childMayAnswer));
    try {
      const stateDir = makeTempDir("openclaw-task-events-");
      const gw = servers.keep(
        await startGateway({ stateDir, token: "task-events-token", configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir) } }),
      );
      const { sock: operator, hello } = await openOperator(gw.url, gw.token);
      expect(hello.features.events).toContain("task");
      const { sock: approver } = await openOperator(gw.url, gw.token, { scopes: ["operator.approvals"] });

      const sent = await operator.request("chat.send", { sessionKey: "parent", message: "spawn events-child work", idempotencyKey: randomUUID() });
      expect(sent.ok, JSON.stringify(sent.error)).toBe(true);
      const started = await operator.waitFor(
        taskEvent((p) => p.action === "upserted" && p.task.title === "events-child work"),
        15_000,
      );
      expect(started.payload.task).toMatchObject({ runtime: "subagent", status: "running", ledgerStatus: "running", agentId: "main", sessionKey: "agent:main:parent" });
      const taskId: string = started.payload.task.taskId;

      release();
      const ended = await operator.waitFor(
        taskEvent((p) => p.action === "upserted" && p.task.taskId === taskId && p.task.ledgerStatus === "succeeded"),
        15_000,
      );
      expect(ended.payload.task).toMatchObject({ status: "completed", terminalSummary: "child result: 7" });
      const { prompt, ...withoutPrompt } = (await operator.request("tasks.get", { taskId })).payload.task;
      expect(prompt).toBe("events-child work");
      expect(ended.payload.task).toEqual(withoutPrompt);
      expect(operator.frames.filter(taskEvent((p) => p.task?.taskId === taskId)).map((f) => f.payload.task.ledgerStatus)).toEqual(["running", "succeeded"]);

      // The approver's answer comes after every event broadcast before it on its socket.
      const refused = await approver.request("tasks.list", {});
      expect(refused.ok).toBe(false);
      expect(approver.frames.some((f) => f.event === "task")).toBe(false);
    } finally {
      release();
    }
  });
});
