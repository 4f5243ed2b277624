import { describe, expect, it } from "vitest";
import { heartbeatVisibilityFor } from "../../../../src/channels/config/heartbeat-visibility.js";
import { validateConfig } from "../../../../src/config/index.js";

describe("heartbeatVisibilityFor", () => {
  it("OpenClaw's defaults, then channels.defaults, the channel's and the account's, flag by flag", () => {
    expect(heartbeatVisibilityFor(validateConfig({}, {}).config, "telegram", undefined)).toEqual({ showOk: false, showAlerts: true, useIndicator: true });
    const { config } = validateConfig(
      {
        channels: {
          defaults: { heartbeatVisibility: { showAlerts: false, useIndicator: false } },
          telegram: { botToken: "1:a", heartbeatVisibility: { showOk: true }, accounts: { Ops: { botToken: "2:b", heartbeatVisibility: { showAlerts: true } } } },
        },
      },
      {},
    );
    expect(heartbeatVisibilityFor(config, "telegram", "default")).toEqual({ showOk: true, showAlerts: false, useIndicator: false });
    expect(heartbeatVisibilityFor(config, "telegram", "ops")).toEqual({ showOk: true, showAlerts: true, useIndicator: false });
    expect(heartbeatVisibilityFor(config, "discord", undefined)).toEqual({ showOk: false, showAlerts: false, useIndicator: false });
  });
});
