import { describe, expect, it } from "vitest";
import { invokeBlocked } from "../../../src/gateway/tools-invoke/invoke-deny-list.js";

describe("gateway.tools for direct tool invocations", () => {
  it("blocks the built-in list unless allow takes a tool off it, and whatever deny names", () => {
    expect(invokeBlocked("exec", undefined)).toBe(true);
    expect(invokeBlocked("read", undefined)).toBe(false);
    expect(invokeBlocked("exec", { allow: ["exec"] })).toBe(false);
    expect(invokeBlocked("sessions_send", { allow: ["sessions_*"] })).toBe(false);
    expect(invokeBlocked("read", { deny: ["group:fs"] })).toBe(true);
    expect(invokeBlocked("exec", { allow: ["exec"], deny: ["exec"] })).toBe(true);
  });
});
