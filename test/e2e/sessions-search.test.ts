import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { askAndWait, chatHistory, messageText } from "../helpers/chat-session.js";
import { chatRequests, lastMessageOf, lastToolResultOf } from "../helpers/model-request.js";

const DOOR_TOKEN = "door-token-5f0a9c1e77b3";

const fakes = useFakeModelGateway({
  operator: true,
  // A secret the gateway holds (a secret-named environment variable): it must never come back in a snippet.
  env: { DOOR_API_TOKEN: DOOR_TOKEN },
  extra: (stateDir) => ({
    agents: {
      defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } },
      entries: { main: { default: true }, vault: {} },
    },
  }),
});

const ask = (sessionKey: string, message: string) => askAndWait(fakes.sock, sessionKey, message, 15_000);

describe("sessions_search in a gateway", () => {
  it("finds the right session's message, not another's nor one outside visibility, and sessions_history reopens it", async () => {
    fakes.model.setResponder((req) => {
      const last = lastMessageOf(req);
      const result = lastToolResultOf(req);
      if (last.role === "user" && last.text === "what was the number I told you?") return { toolCalls: [{ name: "sessions_search", arguments: { query: "locker number" } }] };
      if (result?.results) {
        const hit = result.results[0];
        return { toolCalls: [{ name: "sessions_history", arguments: { sessionKey: hit.sessionKey, offset: hit.historyOffset, limit: 1 } }] };
      }
      if (result?.messages) return { text: "Found it." };
      return { text: "Noted." };
    });
    await ask("alpha", `My locker number is 4471 and the door token is ${DOOR_TOKEN}.`);
    await ask("alpha", "Thanks for noting it.");
    await ask("beta", "My bike lock code is 9382.");
    // Another agent's session: outside the main session's visibility (tools.agentToAgent is off).
    await ask("agent:vault:main", "The locker number of the vault is 1234.");
    expect((await chatHistory(fakes.sock, "agent:vault:main")).map(messageText)).toContain("The locker number of the vault is 1234.");

    const final = await ask("main", "what was the number I told you?");
    expect(final.payload.state).toBe("final");
    const results = chatRequests(fakes.model.requests).map(lastToolResultOf).filter(Boolean) as Record<string, any>[];
    const found = results.find((r) => r.results)!;
    expect(found.results).toHaveLength(1);
    const [hit] = found.results;
    expect(hit).toMatchObject({ sessionKey: "agent:main:alpha", role: "user", historyOffset: 3 });
    expect(hit.snippet).toBe("My locker number is 4471 and the door token is [redacted].");
    expect(JSON.stringify(found)).not.toContain("9382");
    expect(JSON.stringify(found)).not.toContain("vault");
    expect(JSON.stringify(found)).not.toContain(DOOR_TOKEN);

    // The locator opens sessions_history on the hit, masked the same way.
    const history = results.find((r) => r.messages)!;
    expect(history.sessionKey).toBe("agent:main:alpha");
    expect(history.messages.map((m: any) => [m.role, m.text])).toEqual([["user", "My locker number is 4471 and the door token is [redacted]."]]);
    expect(history.contentRedacted).toBe(true);

    // The index is a file of the state dir, readable by its owner only.
    expect(fs.statSync(path.join(fakes.stateDir, "sessions-search", "index.sqlite")).mode & 0o777).toBe(0o600);
  });

  it("an empty query is an INVALID_ARGUMENT tool error the model reads back", async () => {
    fakes.model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text === "search nothing") return { toolCalls: [{ name: "sessions_search", arguments: { query: "  " } }] };
      return { text: "ok" };
    });
    await ask("empty-query", "search nothing");
    const error = chatRequests(fakes.model.requests)
      .map(lastToolResultOf)
      .find((r) => r?.error);
    expect(error).toMatchObject({ error: "INVALID_ARGUMENT", message: "query is empty." });
  });
});
