import { afterEach, describe, expect, it } from "vitest";
import { createCronTool } from "../../../src/agents/tools/cron.js";
import { createCronToolHost } from "../../../src/gateway/cron-wiring.js";
import { cronHarness, settle, type Harness } from "./cron-harness.js";

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.service.stop();
});

async function callTool(h: Harness, args: Record<string, unknown>, agentId = "main", sessionKey?: string) {
  const tool = createCronTool();
  const ctx = { agentId, workspaceDir: h.stateDir, senderIsOwner: true, services: { cron: createCronToolHost(h.service) }, ...(sessionKey ? { sessionKey } : {}) };
  const result = await tool.execute(args as never, ctx as never, new AbortController().signal as never);
  const text = result.content.map((c) => ("text" in c ? c.text : "")).join("");
  return { isError: result.isError === true, body: JSON.parse(text) };
}

describe("the cron tool", () => {
  it('sessionTarget "current" is the calling session, named for good; its runs are turns in that session', async () => {
    const h = await cronHarness();
    open.push(h);
    const chat = "agent:main:telegram:direct:42";
    const job = { name: "check-in", schedule: { kind: "every", every: "1h" }, sessionTarget: "current", payload: { kind: "agentTurn", message: "How is the build?" } };
    const added = await callTool(h, { action: "add", job }, "main", chat);
    expect(added.isError).toBe(false);
    expect(added.body).toMatchObject({ sessionTarget: `session:${chat}` });
    h.conversations.autoReply = () => ({ status: "ok", text: "Still green." });
    expect(h.service.run(added.body.id)).toMatchObject({ ran: true });
    await settle(h.service);
    expect(h.conversations.submitted.map((s) => [s.sessionKey, s.message])).toEqual([[chat, "How is the build?"]]);
    expect(h.conversations.resets).toEqual([]);

    const outside = await callTool(h, { action: "add", job });
    expect(outside.body).toMatchObject({ error: "CRON_REFUSED", message: expect.stringMatching(/"current" needs a calling session/) });
    await expect(h.service.add(job as never)).rejects.toThrow(/sessionTarget "current" is the session the agent's cron tool is called from/);
  });

  it("schedules a reminder into the main session of the calling agent", async () => {
    const h = await cronHarness();
    open.push(h);
    const { isError, body } = await callTool(
      h,
      {
        action: "add",
        job: {
          name: "stretch",
          schedule: { kind: "at", at: "20m" },
          sessionTarget: "main",
          payload: { kind: "systemEvent", text: "Remind the user to stretch" },
          agentId: "other",
        },
      },
      "main",
    );
    expect(isError).toBe(false);
    expect(body).toMatchObject({ name: "stretch", agentId: "main", sessionTarget: "main", state: { nextRunAtMs: h.clock.now() + 20 * 60_000 } });
    expect((await callTool(h, { action: "list" })).body.total).toBe(1);
  });

  it("refuses bad input with a code and the field, and says when scheduling is off", async () => {
    const h = await cronHarness();
    open.push(h);
    const bad = await callTool(h, {
      action: "add",
      job: { name: "x", schedule: { kind: "every", every: "0s" }, sessionTarget: "isolated", payload: { kind: "agentTurn", message: "m" } },
    });
    expect(bad.isError).toBe(true);
    expect(bad.body).toMatchObject({ error: "CRON_REFUSED", message: expect.stringMatching(/too short/) });
    expect((await callTool(h, { action: "remove" })).body).toMatchObject({ error: "CRON_REFUSED", message: "jobId is required for this action" });
    const off = await cronHarness({ env: { OPENCLAW_SKIP_CRON: "1" } });
    open.push(off);
    expect(
      (
        await callTool(off, {
          action: "add",
          job: { name: "x", schedule: { kind: "every", every: "1h" }, sessionTarget: "isolated", payload: { kind: "agentTurn", message: "m" } },
        })
      ).body,
    ).toMatchObject({ error: "CRON_UNAVAILABLE" });
  });
});
