import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/index.js";
import { resolveMemorySettings } from "../../../src/memory/index.js";
import { chunkText, estimateTokens } from "../../../src/memory/chunker.js";
import { ftsMatchExpressions, queryTerms } from "../../../src/memory/query-terms.js";

describe("memory settings", () => {
  it("reads the older agents.defaults.memorySearch as memory.search, which wins key by key, with a warning", () => {
    const { config, warnings } = validateConfig(
      { agents: { defaults: { memorySearch: { provider: "none", query: { maxResults: 3, minScore: 0.2 } } } }, memory: { search: { query: { minScore: 0.5 } } } },
      {},
    );
    expect(warnings.join("\n")).toContain("agents.defaults.memorySearch is the older spelling of memory.search");
    const settings = resolveMemorySettings(config, {});
    expect(settings).toMatchObject({ maxResults: 3, minScore: 0.5, embedding: { kind: "none" } });
  });

  it("chooses embeddings: none on request, OpenAI when its key is set, keyword-only otherwise, explicit when named", () => {
    const settingsOf = (search: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => resolveMemorySettings(validateConfig({ memory: { search } }, env).config, env).embedding;
    expect(settingsOf({ provider: "none" })).toMatchObject({ kind: "none" });
    expect(settingsOf({})).toMatchObject({ kind: "none", reason: expect.stringContaining("OPENAI_API_KEY is not set") });
    expect(settingsOf({}, { OPENAI_API_KEY: "sk-x" })).toMatchObject({
      kind: "remote",
      provider: "openai",
      baseUrl: "https://api.openai.com/v1",
      model: "text-embedding-3-small",
      explicit: false,
    });
    expect(settingsOf({ provider: "local", remote: { baseUrl: "http://127.0.0.1:11434/v1/" } })).toMatchObject({
      kind: "remote",
      provider: "local",
      baseUrl: "http://127.0.0.1:11434/v1",
      explicit: true,
    });
  });

  it("never takes a ${NAME} left unset for a key: the provider's apiKey and memory.search.remote.apiKey fall through to the environment", () => {
    const embeddingOf = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv) => resolveMemorySettings(validateConfig(raw, env).config, env).embedding;
    const provider = { models: { providers: { openai: { apiKey: "${MISSING_OPENAI_KEY}" } } } };
    expect(embeddingOf(provider, {})).toMatchObject({ kind: "none", reason: expect.stringContaining("OPENAI_API_KEY is not set") });
    expect(embeddingOf(provider, { OPENAI_API_KEY: "sk-env" })).toMatchObject({ kind: "remote", apiKey: "sk-env" });
    const remote = { memory: { search: { provider: "openai", remote: { apiKey: "${MISSING_MEMORY_KEY}" } } } };
    expect(embeddingOf(remote, { OPENAI_API_KEY: "sk-env" })).toMatchObject({ kind: "remote", apiKey: "sk-env" });
    expect(embeddingOf(remote, {})).not.toHaveProperty("apiKey");
  });

  it("an Ollama provider embeds through its server's /v1 with nomic-embed-text, and needs no key there", () => {
    const settingsOf = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => resolveMemorySettings(validateConfig(raw, env).config, env).embedding;
    // OLLAMA_API_KEY is Ollama Cloud's: a local server is not sent it.
    expect(settingsOf({ memory: { search: { provider: "ollama" } } }, { OLLAMA_API_KEY: "cloud-key-123456" })).not.toHaveProperty("apiKey");
    expect(settingsOf({ memory: { search: { provider: "ollama" } } })).toEqual({
      kind: "remote",
      provider: "ollama",
      model: "nomic-embed-text",
      baseUrl: "http://127.0.0.1:11434/v1",
      batchSize: 64,
      explicit: true,
    });
    const remote = settingsOf({
      models: { providers: { gpu: { api: "ollama", baseUrl: "http://gpu-box:11434", apiKey: "ollama-local" } } },
      memory: { search: { provider: "gpu", model: "qwen3-embedding", remote: { baseUrl: "http://gpu-box.local:11434/" } } },
    });
    expect(remote).toMatchObject({ model: "qwen3-embedding", baseUrl: "http://gpu-box.local:11434/v1" });
    expect(remote).not.toHaveProperty("apiKey");
  });

  it("has the documented defaults", () => {
    const settings = resolveMemorySettings(validateConfig({}, {}).config, {});
    expect(settings).toMatchObject({
      enabled: true,
      chunkTokens: 400,
      chunkOverlap: 80,
      maxResults: 6,
      minScore: 0.35,
      vectorWeight: 0.7,
      textWeight: 0.3,
      candidateMultiplier: 4,
      mmr: { enabled: true, lambda: 0.7 },
      decay: { enabled: true, halfLifeDays: 30 },
      watch: true,
      watchDebounceMs: 1500,
    });
  });

  it("rejects bad values with the key's path", () => {
    expect(() => validateConfig({ memory: { search: { query: { minScore: 2 } } } }, {})).toThrow(/memory\.search\.query\.minScore/);
  });
});

describe("chunking", () => {
  it("makes ~400-token chunks with ~80 tokens of overlap and exact line ranges", () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i + 1} ${"word ".repeat(12)}`.trim());
    const chunks = chunkText(`${lines.join("\n")}\n`, 400, 80);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(estimateTokens(chunk.text)).toBeLessThanOrEqual(400);
      expect(chunk.text).toBe(lines.slice(chunk.startLine - 1, chunk.endLine).join("\n"));
    }
    for (let i = 1; i < chunks.length; i++) {
      const overlapLines = chunks[i - 1]!.endLine - chunks[i]!.startLine + 1;
      expect(overlapLines).toBeGreaterThan(0);
      expect(estimateTokens(lines.slice(chunks[i]!.startLine - 1, chunks[i - 1]!.endLine).join("\n"))).toBeLessThanOrEqual(80);
    }
    expect(chunks[chunks.length - 1]!.endLine).toBe(200);
  });

  it("cuts a single huge line into pieces that keep its line number; CJK counts a token a character", () => {
    const chunks = chunkText(`short\n${"记忆".repeat(500)}\n`, 400, 80);
    expect(chunks.every((c) => estimateTokens(c.text) <= 400)).toBe(true);
    expect(chunks.slice(1).every((c) => c.startLine === 2 || c.endLine === 2)).toBe(true);
    expect(estimateTokens("记忆索引")).toBe(4);
  });
});

describe("query terms", () => {
  it("quotes every term, so FTS5 syntax is plain text", () => {
    expect(ftsMatchExpressions('NEAR("deploy" key*) AND OR')).toEqual({ words: '"near" OR "deploy" OR "key"' });
    expect(ftsMatchExpressions('"')).toEqual({});
    expect(ftsMatchExpressions("")).toEqual({});
  });

  it("drops stopwords and one-letter words, and splits CJK runs into trigrams", () => {
    expect(queryTerms("when does the deploy key rotate, a b")).toEqual({ words: ["deploy", "key", "rotate"], cjk: [] });
    expect(queryTerms("部署密钥轮换 deploy")).toEqual({ words: ["deploy"], cjk: ["部署密", "署密钥", "密钥轮", "钥轮换"] });
  });
});
