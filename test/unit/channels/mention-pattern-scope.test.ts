import { describe, expect, it } from "vitest";
import { mentionPatternsFor, patternsApplyIn } from "../../../src/channels/access/access-policy.js";

describe("a channel's mentionPatterns policy", () => {
  it("allow (the default) applies patterns except in denyIn; deny only in allowIn; denyIn wins; any id of the conversation counts", () => {
    expect(patternsApplyIn({}, ["c1"])).toBe(true);
    expect(patternsApplyIn({ denyIn: ["c1"] }, ["c1"])).toBe(false);
    expect(patternsApplyIn({ mode: "deny" }, ["c1"])).toBe(false);
    expect(patternsApplyIn({ mode: "deny", allowIn: ["g1"] }, ["g1:topic:7", "g1"])).toBe(true);
    expect(patternsApplyIn({ mode: "deny", allowIn: ["g1"], denyIn: ["g1:topic:7"] }, ["g1:topic:7", "g1"])).toBe(false);
  });

  it("where it turns them off no pattern is left, not even the identity's; a list stays the channel's own patterns", () => {
    const agent = { identity: { name: "Claw" }, groupChat: { mentionPatterns: ["\\bpager\\b"] } };
    expect(mentionPatternsFor({ mode: "deny" }, agent, ["x"], ["c1"]).patterns).toEqual([]);
    expect(mentionPatternsFor({ mode: "deny", allowIn: ["c1"] }, agent, ["x"], ["c1"]).patterns).toEqual(["\\bpager\\b"]);
    expect(mentionPatternsFor(["^bot"], agent, ["x"], ["c1"]).patterns).toEqual(["^bot"]);
    expect(mentionPatternsFor({ denyIn: ["c2"] }, { identity: { name: "Claw" } }, undefined, ["c1"]).patterns).toHaveLength(1);
  });
});
