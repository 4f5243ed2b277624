import { describe, expect, it } from "vitest";
import { listSessions, sessionHistory, type SessionViewDeps } from "../../../src/agents/agent-to-agent/session-views.js";
import type { SessionToolCaller } from "../../../src/agents/tools/index.js";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { HistoryCache } from "../../../src/conversations/history-cache.js";
import { modelTextRedaction } from "../../../src/gateway/model-text-redaction.js";
import { makeStateDir, openStore } from "../sessions/store/helpers.js";

/** A provider key in the config: the gateway's redaction masks it wherever it shows up. */
const KEY = "sk-provider-key-0123456789abcdef";

function setup() {
  const store = openStore(makeStateDir());
  const config = applyDefaults({ models: { providers: { acme: { baseUrl: "http://127.0.0.1:9/v1", apiKey: KEY, api: "openai-completions" } } } } as never) as OpenClawConfig;
  const deps: SessionViewDeps = {
    config: () => config,
    store,
    conversations: { history: (key: string) => new HistoryCache(store).history(key), runs: { activeFor: () => [] } } as never,
    registry: undefined as never,
    spawnedBy: () => false,
    redact: modelTextRedaction(() => config, {}),
  };
  store.ensure("agent:main:main");
  store.appendMessages("agent:main:main", null, [
    { role: "user", content: `my key is ${KEY}, keep it`, timestamp: 1 },
    { role: "assistant", content: [{ type: "text", text: "Noted." }], timestamp: 2 },
  ] as never);
  return deps;
}

const caller: SessionToolCaller = { sessionKey: "agent:main:main", agentId: "main", senderIsOwner: true, workspaceDir: "/workspace" };

describe("the session views mask secrets in what they hand back to the model", () => {
  it("sessions_history masks a configured credential and says so; text without one is as written", () => {
    const result = sessionHistory(setup(), caller, { sessionKey: "main" }) as Record<string, any>;
    expect(result.contentRedacted).toBe(true);
    expect(result.messages.map((m: { text: string }) => m.text)).toEqual(["my key is [redacted], keep it", "Noted."]);
    expect(JSON.stringify(result)).not.toContain(KEY);
    const tail = sessionHistory(setup(), caller, { sessionKey: "main", limit: 1 }) as Record<string, any>;
    expect(tail.messages.map((m: { text: string }) => m.text)).toEqual(["Noted."]);
    expect(tail).not.toHaveProperty("contentRedacted");
  });

  it("sessions_list's last messages are masked the same way", () => {
    const result = listSessions(setup(), caller, { messageLimit: 2 }) as Record<string, any>;
    const [row] = result.sessions;
    expect(row.contentRedacted).toBe(true);
    expect(row.lastMessages[0].text).toBe("my key is [redacted], keep it");
    expect(JSON.stringify(result)).not.toContain(KEY);
  });
});
