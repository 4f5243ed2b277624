import { describe, expect, it } from "vitest";
import { createAvailableTools } from "../../../src/agents/tools/index.js";
import { createHeartbeatRespondTool, heartbeatNotification } from "../../../src/agents/tools/heartbeat-respond.js";
import type { HeartbeatReportSlot, ToolResult } from "../../../src/agents/types.js";
import { errorOf, makeContext, neverAborted, textOf } from "./helpers.js";

const tool = createHeartbeatRespondTool();

const call = (args: Parameters<typeof tool.execute>[0], heartbeatReport?: HeartbeatReportSlot): Promise<ToolResult> =>
  tool.execute(args, makeContext("/tmp", heartbeatReport ? { heartbeatReport } : {}), neverAborted);

const baseOptions = { memory: false, sessionTools: false, messenger: false, cron: false, gateway: false, viewImage: "off" as const, askUser: false };

describe("heartbeat_respond", () => {
  it("is offered only to a heartbeat turn, after every other tool", () => {
    expect(createAvailableTools(baseOptions).map((t) => t.name)).not.toContain("heartbeat_respond");
    expect(createAvailableTools({ ...baseOptions, heartbeatRespond: true }).at(-1)?.name).toBe("heartbeat_respond");
  });

  it("outside a heartbeat turn it says so and records nothing", async () => {
    expect(errorOf(await call({ outcome: "done", notify: false, summary: "all quiet" }))).toMatchObject({ error: "NOT_A_HEARTBEAT" });
  });

  it("records the first report, trimmed and without empty fields, and refuses a second", async () => {
    const slot: HeartbeatReportSlot = {};
    const first = await call(
      { outcome: "needs_attention", notify: true, summary: " The disk is 95% full. ", notificationText: " Disk almost full ", reason: " ", priority: "high" },
      slot,
    );
    expect(JSON.parse(textOf(first))).toEqual({
      status: "accepted",
      outcome: "needs_attention",
      notify: true,
      summary: "The disk is 95% full.",
      notificationText: "Disk almost full",
      priority: "high",
    });
    expect(slot.accepted).toEqual({ outcome: "needs_attention", notify: true, summary: "The disk is 95% full.", notificationText: "Disk almost full", priority: "high" });
    expect(errorOf(await call({ outcome: "no_change", notify: false, summary: "never mind" }, slot))).toMatchObject({ error: "HEARTBEAT_ALREADY_REPORTED" });
    expect(slot.accepted?.outcome).toBe("needs_attention");
  });

  it("an empty summary is an argument error and leaves the slot empty", async () => {
    const slot: HeartbeatReportSlot = {};
    expect(errorOf(await call({ outcome: "done", notify: false, summary: "  " }, slot))).toMatchObject({ error: "INVALID_ARGUMENT", message: expect.stringContaining("summary") });
    expect(slot.accepted).toBeUndefined();
  });

  it("the user is sent nothing for notify=false, the notification text for notify=true, else the summary", () => {
    expect(heartbeatNotification({ outcome: "no_change", notify: false, summary: "quiet", notificationText: "ignored" })).toBe("");
    expect(heartbeatNotification({ outcome: "blocked", notify: true, summary: "CI is red", notificationText: "CI red on main" })).toBe("CI red on main");
    expect(heartbeatNotification({ outcome: "blocked", notify: true, summary: "CI is red" })).toBe("CI is red");
  });
});
