import { describe, expect, it } from "vitest";
import { parseAllowlistArgs } from "../../../src/conversations/commands/allowlist-command.js";

describe("/allowlist arguments", () => {
  it("reads action, scope, entry and the channel/account options in OpenClaw's order", () => {
    expect(parseAllowlistArgs("")).toEqual({ action: "list", scope: "dm", entry: "" });
    expect(parseAllowlistArgs("all")).toEqual({ action: "list", scope: "all", entry: "" });
    expect(parseAllowlistArgs("add 12345")).toEqual({ action: "add", scope: "dm", entry: "12345" });
    expect(parseAllowlistArgs("REMOVE group U200 channel=Slack")).toEqual({ action: "remove", scope: "group", entry: "U200", channel: "slack" });
    expect(parseAllowlistArgs("add dm 42 --channel telegram --account Work")).toEqual({ action: "add", scope: "dm", entry: "42", channel: "telegram", account: "work" });
  });
});
