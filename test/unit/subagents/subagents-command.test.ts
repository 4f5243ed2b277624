import { afterEach, describe, expect, it } from "vitest";
import pino from "pino";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { SubagentService } from "../../../src/agents/subagents/subagent-service.js";
import { parseSubagentsArgs, runSubagentsCommand, subagentsCommandArgs, SUBAGENTS_COMMAND_HELP } from "../../../src/agents/subagents/subagents-command.js";
import { SessionStore } from "../../../src/sessions/store/index.js";
import { FakeConversations, settle } from "./fake-conversations.js";
import { resolveTarget } from "../../../src/agents/subagents/subagent-control.js";
import type { SubagentRunRecord } from "../../../src/agents/subagents/types.js";
import { tempStateDir } from "./helpers.js";

const services: SubagentService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
});

function setup() {
  const stateDir = tempStateDir();
  const store = new SessionStore(stateDir);
  store.ensure("agent:main:main");
  const conversations = new FakeConversations(store);
  const service = new SubagentService({ stateDir, config: () => applyDefaults({}) as OpenClawConfig, store, conversations, logger: pino({ level: "silent" }) });
  service.start();
  services.push(service);
  const caller = { sessionKey: "agent:main:main", agentId: "main", senderIsOwner: true, workspaceDir: "/nonexistent" };
  return { conversations, service, caller };
}

describe("/subagents parsing", () => {
  it("reads the actions, keeps a steer message whole, and sends anything else to the help text", () => {
    expect(subagentsCommandArgs("/subagents list")).toBe("list");
    expect(subagentsCommandArgs("  /SUBAGENTS")).toBe("");
    expect(subagentsCommandArgs("/subagentsx")).toBeUndefined();
    expect(subagentsCommandArgs("tell me about /subagents")).toBeUndefined();
    expect(parseSubagentsArgs("list")).toEqual({ action: "list" });
    expect(parseSubagentsArgs("kill all")).toEqual({ action: "kill", target: "all" });
    expect(parseSubagentsArgs("steer #2 go left,\n  then right")).toEqual({ action: "steer", target: "#2", message: "go left,\n  then right" });
    expect(parseSubagentsArgs("log research 5")).toEqual({ action: "log", target: "research", limit: 5 });
    expect(parseSubagentsArgs("info")).toEqual({ action: "info" });
    expect(parseSubagentsArgs("")).toBeUndefined();
    expect(parseSubagentsArgs("dance")).toBeUndefined();
  });
});

describe("runSubagentsCommand", () => {
  it("lists, shows info and the log, kills, and explains problems in words", async () => {
    const { conversations, service, caller } = setup();
    expect(await runSubagentsCommand(caller.sessionKey, "", { service })).toBe(SUBAGENTS_COMMAND_HELP);
    expect(await runSubagentsCommand(caller.sessionKey, "list", { service })).toMatch(/^No sub-agents active/);
    const spawned = await service.spawn(caller, { task: "collect shells", label: "beach" });
    if (!("status" in spawned)) throw new Error(spawned.message);
    expect(await runSubagentsCommand(caller.sessionKey, "list", { service })).toMatch(/^#1 \[running\] "beach" · [\d.]+m?s · agent:main:subagent:/);
    expect(await runSubagentsCommand(caller.sessionKey, "info #1", { service })).toContain("task: collect shells");
    expect(await runSubagentsCommand(caller.sessionKey, "log beach", { service })).toContain("user: [Subagent Task] collect shells");
    expect(await runSubagentsCommand(caller.sessionKey, "kill #7", { service })).toBe(
      '⚠️ No sub-agent of yours matches "#7". Use /subagents list: use #n, a label, a runId prefix or a session key.',
    );
    expect(await runSubagentsCommand(caller.sessionKey, "steer beach", { service })).toMatch(/^⚠️ The steer message is empty/);
    expect(await runSubagentsCommand(caller.sessionKey, `kill ${spawned.runId.slice(0, 8)}`, { service })).toMatch(/^Killed "beach"/);
    await settle();
    expect(conversations.run(spawned.runId).status).toBe("aborted");
    expect(await runSubagentsCommand(caller.sessionKey, "list", { service })).toMatch(/^#1 \[killed\] "beach"/);
    // Another session sees none of them: control is confined to the caller's tree.
    expect(await runSubagentsCommand("agent:main:other", "kill #1", { service })).toMatch(/^⚠️ No sub-agent of yours matches/);
  });
});

describe("resolveTarget", () => {
  const record = (runId: string, label?: string) => ({ runId, childSessionKey: `agent:main:subagent:${runId}`, label }) as unknown as SubagentRunRecord;
  const digits = record("24368973-aaaa-4bbb-8ccc-000000000000", "beach");
  const hex = record("abcdef01-aaaa-4bbb-8ccc-000000000000");
  const rows = [hex, digits];

  it("reads #n and a bare number within the list as a position", () => {
    expect(resolveTarget(rows, rows, "#2")).toBe(digits);
    expect(resolveTarget(rows, rows, "1")).toBe(hex);
    expect(resolveTarget(rows, rows, "#7")).toBeUndefined();
  });

  it("reads a longer number as a runId prefix made only of digits", () => {
    expect(resolveTarget(rows, rows, "24368973")).toBe(digits);
    expect(resolveTarget(rows, rows, "2436")).toBe(digits);
    expect(resolveTarget(rows, rows, "99999999")).toBeUndefined();
  });
});
