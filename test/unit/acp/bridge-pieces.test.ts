import { describe, expect, it } from "vitest";
import { isReadUnderCwd, optionOfKind } from "../../../src/acp/client/permission-policy.js";
import { createWindowBudget } from "../../../src/acp/bridge/creation-budget.js";
import { MAX_PROMPT_BYTES, promptToText, withCwdPrefix } from "../../../src/acp/bridge/prompt-text.js";
import { decodeListCursor, encodeListCursor, pageSizeFrom } from "../../../src/acp/bridge/session-list.js";
import { sessionKeyForId } from "../../../src/acp/bridge/sessions.js";
import { transcriptUpdates } from "../../../src/acp/bridge/replay.js";

const read = (extra: Record<string, unknown>) => ({ sessionId: "s", options: [], toolCall: { toolCallId: "t", kind: "read" as const, ...extra } });

describe("acp client permission policy", () => {
  it("approves a read only when every path it names is absolute and inside the cwd", () => {
    expect(isReadUnderCwd(read({ locations: [{ path: "/work/p/a.txt" }] }), "/work/p")).toBe(true);
    expect(isReadUnderCwd(read({ rawInput: { path: "/work/p/sub/b.txt" } }), "/work/p")).toBe(true);
    expect(isReadUnderCwd(read({ locations: [{ path: "/work/p/../q/a.txt" }] }), "/work/p")).toBe(false);
    expect(isReadUnderCwd(read({ locations: [{ path: "/work/pq/a.txt" }] }), "/work/p")).toBe(false);
    expect(isReadUnderCwd(read({ locations: [{ path: "a.txt" }] }), "/work/p")).toBe(false);
    expect(isReadUnderCwd(read({ locations: [{ path: "/work/p/a" }], rawInput: { path: "/etc/passwd" } }), "/work/p")).toBe(false);
    expect(isReadUnderCwd(read({}), "/work/p")).toBe(false);
    expect(isReadUnderCwd({ ...read({ locations: [{ path: "/work/p/a" }] }), toolCall: { toolCallId: "t", kind: "edit", locations: [{ path: "/work/p/a" }] } }, "/work/p")).toBe(
      false,
    );
  });

  it("picks options by kind in the order asked", () => {
    const options = [
      { optionId: "proceed_always", name: "a", kind: "allow_always" as const },
      { optionId: "proceed_once", name: "o", kind: "allow_once" as const },
    ];
    expect(optionOfKind(options, ["allow_once", "allow_always"])?.optionId).toBe("proceed_once");
    expect(optionOfKind(options, ["reject_once"])).toBeUndefined();
  });
});

describe("acp bridge pieces", () => {
  it("flattens prompts to text and refuses what it cannot forward", () => {
    expect(
      promptToText([
        { type: "text", text: "look at" },
        { type: "resource", resource: { uri: "file:///p/a.ts", text: "let a = 1;" } },
        { type: "resource_link", uri: "file:///p/b.ts", name: "b.ts" },
      ]),
    ).toBe("look at\nResource file:///p/a.ts:\nlet a = 1;\n[b.ts](file:///p/b.ts)");
    expect(() => promptToText([{ type: "image", data: "AAAA", mimeType: "image/png" }])).toThrow(/not supported/);
    expect(() => promptToText([{ type: "text", text: "x".repeat(MAX_PROMPT_BYTES + 1) }])).toThrow(/2 MB/);
    expect(withCwdPrefix("hi", "/srv/p")).toBe("[Working directory: /srv/p]\n\nhi");
  });

  it("list cursors round-trip and are tied to their cwd filter", () => {
    const cursor = encodeListCursor({ offset: 100, cwd: "/p" });
    expect(decodeListCursor(cursor, "/p")).toEqual({ offset: 100, cwd: "/p" });
    expect(() => decodeListCursor(cursor, undefined)).toThrow(/different cwd/);
    expect(() => decodeListCursor("garbage!", undefined)).toThrow(/not one this bridge issued/);
    expect(() => decodeListCursor(encodeListCursor({ offset: 20_000 }), undefined)).toThrow(/not one this bridge issued/);
    expect(pageSizeFrom({ pageSize: 5 })).toBe(5);
    expect(() => pageSizeFrom({ pageSize: 0 })).toThrow(/1 to 100/);
  });

  it("the session-creation budget refills when its window turns over", () => {
    let t = 0;
    const budget = createWindowBudget(2, 10_000, () => t);
    expect(budget.take().allowed).toBe(true);
    expect(budget.take().allowed).toBe(true);
    expect(budget.take()).toEqual({ allowed: false, retryAfterMs: 10_000 });
    t = 10_000;
    expect(budget.take().allowed).toBe(true);
  });

  it("maps ids to gateway keys and replays transcripts as updates", () => {
    expect(sessionKeyForId("0b8a7c8e-1d2f-4a5b-9c6d-7e8f9a0b1c2d")).toBe("acp-bridge:0b8a7c8e-1d2f-4a5b-9c6d-7e8f9a0b1c2d");
    expect(sessionKeyForId("agent:main:main")).toBe("agent:main:main");
    const updates = transcriptUpdates([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hm" },
          { type: "toolCall", id: "c1", name: "exec", arguments: { command: "ls" } },
        ],
      },
      { role: "toolResult", toolCallId: "c1", isError: false, content: [{ type: "text", text: "a.txt" }] },
      { role: "assistant", content: [{ type: "text", text: "one file" }] },
    ]);
    expect(updates.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]);
    expect(updates[2]).toMatchObject({ toolCallId: "c1", kind: "execute", title: "exec: ls" });
    expect(updates[3]).toMatchObject({ status: "completed", content: [{ type: "content", content: { type: "text", text: "a.txt" } }] });
  });
});
