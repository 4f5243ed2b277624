import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { createRemoteEmbedder } from "../../../src/memory/embeddings.js";
import { resolveMemorySettings } from "../../../src/memory/settings.js";
import { localModelServices } from "../../../src/models/index.js";
import { closedPort } from "../../helpers/ports.js";

/** Memory embeddings from a provider with a `localService` lease that server: started on the first embedding, as for a model turn. */

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/local-model-server/server.mjs");

afterAll(() => localModelServices.stopAll());

async function localProviderConfig(remoteBaseUrl?: string) {
  const port = await closedPort();
  const starts = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "local-embeddings-")), "starts");
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  const config = {
    memory: { search: { provider: "local", model: "local-embed", ...(remoteBaseUrl ? { remote: { baseUrl: remoteBaseUrl } } : {}) } },
    models: {
      providers: {
        local: { baseUrl, apiKey: "local-key", api: "openai-completions", localService: { command: process.execPath, args: [SERVER, String(port)], env: { STARTS_FILE: starts } } },
      },
    },
  } as unknown as OpenClawConfig;
  return { config, baseUrl, starts };
}

describe("embeddings through a provider's localService", () => {
  it("the first embedding starts the provider's server, and the next reuses it", async () => {
    const { config, starts } = await localProviderConfig();
    const settings = resolveMemorySettings(config, {}).embedding;
    expect(settings).toMatchObject({ kind: "remote", localService: { label: "models.providers.local.localService", healthUrl: expect.stringMatching(/\/v1\/models$/) } });
    if (settings.kind !== "remote") throw new Error("expected remote embeddings");
    const embedder = createRemoteEmbedder(settings);
    const vectors = await embedder.embed(["one", "two"]);
    expect(vectors.map((v) => [...v])).toEqual([
      [1, 0, 0.5],
      [1, 1, 0.5],
    ]);
    await embedder.embed(["three"]);
    expect(fs.readFileSync(starts, "utf8").trim().split("\n")).toHaveLength(1);
  }, 20_000);

  it("an embeddings endpoint of its own (memory.search.remote.baseUrl) is not the provider's server: nothing is leased", async () => {
    const { config } = await localProviderConfig("http://127.0.0.1:9/v1");
    expect(resolveMemorySettings(config, {}).embedding).not.toHaveProperty("localService");
  });
});
