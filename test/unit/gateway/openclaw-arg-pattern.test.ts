import { describe, expect, it } from "vitest";
import { cwdBoundArgPattern } from "../../../src/gateway/methods/openclaw-arg-pattern.js";

/** The values OpenClaw 2026.9.6 computes for the same grants (its exec-command-resolution module). */
describe("cwdBoundArgPattern", () => {
  it("names a grant exactly as OpenClaw's approvals file does", () => {
    expect(cwdBoundArgPattern({ argv: ["ls", "-a"], cwd: "/tmp/ws" })).toBe("sha256:cwd-argv:v1:a58d08d83173f4b046537048ec3ce784e82fa9e80bec3884a0611db80b8b16c3");
    expect(cwdBoundArgPattern({ argv: ["git", "commit", "-m", "héllo wörld"], cwd: "/home/u/proj/" })).toBe(
      "sha256:cwd-argv:v1:089e100c758c86f09d231a5e8abbd18ccf0a4de7d61a0a11552bf4940b1dcc41",
    );
  });
});
