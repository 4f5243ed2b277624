import { describe, expect, it } from "vitest";
import { messageTurnSettings } from "../../../src/conversations/message-turn-settings.js";

describe("messageTurnSettings", () => {
  it("keeps only the fields that are set, and makes settings with none set no settings", () => {
    expect(messageTurnSettings(undefined)).toBeUndefined();
    // A heartbeat without model or lightContext, a webhook without model, thinking or timeout.
    expect(messageTurnSettings({})).toBeUndefined();
    expect(messageTurnSettings({ thinkingLevel: undefined, timeoutSeconds: undefined })).toBeUndefined();
    expect(messageTurnSettings({ thinkingLevel: "high", timeoutSeconds: undefined })).toEqual({ thinkingLevel: "high" });
    expect(messageTurnSettings({ lightContext: false, timeoutSeconds: 0 })).toEqual({ lightContext: false, timeoutSeconds: 0 });
  });
});
