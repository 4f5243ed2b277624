import { describe, expect, it } from "vitest";
import { resolveEffectiveTools } from "../../../src/agents/policy/index.js";
import { createAvailableTools, createProgressCardTool } from "../../../src/agents/tools/index.js";
import { offersProgressCard } from "../../../src/agents/progress-card-offer.js";
import type { ProgressCardHost } from "../../../src/agents/types.js";
import { ProgressCardRefusal, type ProgressCardContent } from "../../../src/sessions/progress-card/index.js";
import { errorOf, makeContext, neverAborted, textOf } from "./helpers.js";

const tool = createProgressCardTool();
const baseOptions = { memory: false, sessionTools: false, messenger: false, cron: false, gateway: false, viewImage: "off" as const, askUser: false };

/** A host that keeps the last card in memory, as the gateway's store does on the session entry. */
function memoryHost(): ProgressCardHost & { writes: [string, string, ProgressCardContent][] } {
  let revision = 0;
  const writes: [string, string, ProgressCardContent][] = [];
  return {
    writes,
    keeps: () => true,
    async write(sessionKey, agentId, content) {
      writes.push([sessionKey, agentId, content]);
      revision += 1;
      return content.markdown === undefined && content.steps === undefined ? null : { revision, updatedAt: 1, ...content };
    },
  };
}

describe("progress_card", () => {
  it("is offered only with the option, before ask_user and heartbeat_respond (which stay last)", () => {
    expect(createAvailableTools(baseOptions).map((t) => t.name)).not.toContain("progress_card");
    expect(createAvailableTools({ ...baseOptions, progressCard: true }).at(-1)?.name).toBe("progress_card");
    expect(
      createAvailableTools({ ...baseOptions, progressCard: true, askUser: true, heartbeatRespond: true })
        .map((t) => t.name)
        .slice(-3),
    ).toEqual(["progress_card", "ask_user", "heartbeat_respond"]);
  });

  it("is offered to a session's own run only: not without a session or host, not to a sub-agent, not with tools.updatePlan false", () => {
    expect(offersProgressCard({} as never, "agent:main:main", undefined, true)).toBe(true);
    expect(offersProgressCard({} as never, undefined, undefined, true)).toBe(false);
    expect(offersProgressCard({} as never, "agent:main:main", undefined, false)).toBe(false);
    expect(offersProgressCard({} as never, "agent:main:main", 1, true)).toBe(false);
    expect(offersProgressCard({} as never, "agent:main:subagent:abc", undefined, true)).toBe(false);
    expect(offersProgressCard({ tools: { updatePlan: false } } as never, "agent:main:main", undefined, true)).toBe(false);
    expect(offersProgressCard({ tools: { updatePlan: true } } as never, "agent:main:main", undefined, true)).toBe(true);
  });

  it("writes the running turn's session and agent and answers with OpenClaw's receipts and counts", async () => {
    const host = memoryHost();
    const ctx = makeContext("/tmp", { progressCards: host });
    const plan = [
      { step: "one", status: "completed" as const },
      { step: "two", status: "in_progress" as const },
      { step: "three", status: "pending" as const },
    ];
    const withPlan = await tool.execute({ plan }, ctx, neverAborted);
    expect(textOf(withPlan)).toBe("Progress card updated (rev 1, 1/3 done)");
    expect(withPlan.details).toEqual({ revision: 1, counts: { completed: 1, total: 3 } });
    expect(host.writes[0]!.slice(0, 2)).toEqual(["agent:main:main", "main"]);
    const noteOnly = await tool.execute({ markdown: "Blocked on review." }, ctx, neverAborted);
    expect(textOf(noteOnly)).toBe("Progress card updated (rev 2)");
    expect(noteOnly.details).toEqual({ revision: 2, counts: null });
    const cleared = await tool.execute({}, ctx, neverAborted);
    expect(textOf(cleared)).toBe("Progress card cleared");
  });

  it("refuses an invalid card without writing, naming the rule", async () => {
    const host = memoryHost();
    const result = await tool.execute(
      {
        plan: [
          { step: "a", status: "in_progress" },
          { step: "b", status: "in_progress" },
        ],
      },
      makeContext("/tmp", { progressCards: host }),
      neverAborted,
    );
    expect(errorOf(result)).toMatchObject({
      error: "PROGRESS_CARD_INVALID",
      message: "The progress card was not changed: plan has 2 in_progress steps; at most one step may be in_progress.",
    });
    expect(host.writes).toEqual([]);
  });

  it("says so when there is no card to keep (no host, or a session the store refuses)", async () => {
    expect(errorOf(await tool.execute({ markdown: "x" }, makeContext("/tmp"), neverAborted))).toMatchObject({ error: "PROGRESS_CARD_UNAVAILABLE" });
    const refusing: ProgressCardHost = {
      keeps: () => false,
      write: async () => {
        throw new ProgressCardRefusal("this session is a one-off request that is not kept, so it has no progress card");
      },
    };
    expect(errorOf(await tool.execute({ markdown: "x" }, makeContext("/tmp", { progressCards: refusing }), neverAborted))).toMatchObject({
      error: "PROGRESS_CARD_UNAVAILABLE",
      message: "this session is a one-off request that is not kept, so it has no progress card",
    });
  });
});

describe("progress_card and the tool policy", () => {
  const resolve = (tools: Record<string, unknown>) =>
    resolveEffectiveTools({ config: { tools } as never, agentId: "main", senderIsOwner: true, ownerOnlyTools: [], available: ["read", "progress_card"] }).allowed;

  it("a tools.deny entry naming it, or the older update_plan, removes it; group:agents carries it", () => {
    expect(resolve({})).toEqual(["read", "progress_card"]);
    expect(resolve({ deny: ["progress_card"] })).toEqual(["read"]);
    expect(resolve({ deny: ["update_plan"] })).toEqual(["read"]);
    expect(resolve({ deny: ["group:agents"] })).toEqual(["read"]);
    expect(resolve({ allow: ["read"] })).toEqual(["read"]);
  });
});
