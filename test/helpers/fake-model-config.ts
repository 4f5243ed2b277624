import path from "node:path";
import type { FakeModelServer } from "../fakes/model-server.js";

/** A gateway config whose default agent talks to the fake model server (OpenAI wire format). */
export function fakeModelConfig(server: FakeModelServer, stateDir: string, extra: Record<string, unknown> = {}): string {
  const config = {
    agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } } },
    models: {
      providers: {
        fake: { baseUrl: `${server.url}/v1`, apiKey: "sk-fake", api: "openai-completions", models: [{ id: "fake-model", contextWindow: 120000, maxTokens: 4096 }] },
      },
    },
    gateway: { http: { endpoints: { chatCompletions: { enabled: true } } } },
    ...extra,
  };
  return JSON.stringify(config, null, 2);
}
