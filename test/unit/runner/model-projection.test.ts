import { describe, expect, it } from "vitest";
import type { ModelMessage, TranscriptMessage } from "../../../src/agents/types.js";
import { ModelProjection, projectMessage } from "../../../src/models/model-projection.js";
import { modelProjection, toModelMessages } from "../../../src/agents/runner/model-messages.js";

const transcriptUser = { role: "user", content: "hi", timestamp: 5, idempotencyKey: "k1", provenance: { kind: "external_user", method: "http" } } as TranscriptMessage;
const transcriptResult = {
  role: "toolResult",
  toolCallId: "c1",
  toolName: "exec",
  content: [{ type: "text", text: "done" }],
  isError: false,
  details: { exitCode: 0 },
  timestamp: 7,
} as TranscriptMessage;

describe("model projections", () => {
  it("keep only what a model sees, in a fixed field order", () => {
    const user = projectMessage(transcriptUser)!;
    expect(Object.keys(user)).toEqual(["role", "content", "timestamp"]);
    expect(user).toEqual({ role: "user", content: "hi", timestamp: 5 });
    const result = projectMessage(transcriptResult)!;
    expect(Object.keys(result)).toEqual(["role", "toolCallId", "toolName", "content", "isError", "timestamp"]);
    expect(projectMessage({ role: "custom", content: "x" } as TranscriptMessage)).toBeUndefined();
  });

  it("are recognised as projections and pass through toModelMessages as themselves", () => {
    const user = projectMessage(transcriptUser)!;
    expect(ModelProjection.is(user)).toBe(true);
    expect(ModelProjection.is(transcriptUser)).toBe(false);
    expect(ModelProjection.is({ role: "user", content: "hi", timestamp: 5 })).toBe(false);
    expect(modelProjection(user)).toBe(user);
    expect(toModelMessages([user])[0]).toBe(user);
    // A transcript message is projected once and the same projection is given back after.
    expect(modelProjection(transcriptUser)).toBe(modelProjection(transcriptUser));
  });

  it("carry a memo per tag that JSON, spread and equality do not see", () => {
    const user = projectMessage(transcriptUser)!;
    const tagA = {};
    const tagB = {};
    expect(ModelProjection.memo(user, tagA)).toBeUndefined();
    expect(ModelProjection.remember(user, tagA, "json-a")).toBe(true);
    expect(ModelProjection.memo(user, tagA)).toBe("json-a");
    expect(ModelProjection.memo(user, tagB)).toBeUndefined();
    expect(JSON.stringify(user)).toBe('{"role":"user","content":"hi","timestamp":5}');
    expect({ ...user }).toEqual({ role: "user", content: "hi", timestamp: 5 });
    // A plain message has no slot: the caller keeps its own cache for it.
    const plain: ModelMessage = { role: "user", content: "hi", timestamp: 5 };
    expect(ModelProjection.remember(plain, tagA, "x")).toBe(false);
    expect(ModelProjection.memo(plain, tagA)).toBeUndefined();
  });
});
