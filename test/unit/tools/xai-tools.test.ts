import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/validate.js";
import { compileToolList, expandToolNames } from "../../../src/agents/policy/index.js";
import { profileAllowList } from "../../../src/agents/policy/tool-profiles.js";
import { createCodeExecutionTool } from "../../../src/agents/tools/code-execution.js";
import { SearchArgumentError } from "../../../src/agents/tools/web-search/search-types.js";
import { grokSearchProvider } from "../../../src/agents/tools/web-search/grok-search.js";
import { webSearchSetup } from "../../../src/agents/tools/web-search/web-search-setup.js";
import { createXSearchTool, xSearchFilters } from "../../../src/agents/tools/x-search.js";
import { parseXaiAnswer, XaiAnswerError } from "../../../src/agents/tools/xai/xai-answer.js";
import { xaiApiKey, xaiBaseUrl } from "../../../src/agents/tools/xai/xai-credentials.js";
import { askXai, XaiRequestError } from "../../../src/agents/tools/xai/xai-responses.js";
import { offeredXaiTools, xaiToolsSetup } from "../../../src/agents/tools/xai/xai-tools-setup.js";
import { type FakeXaiServer, startFakeXaiServer } from "../../fakes/xai-server.js";
import { errorOf, makeContext, makeTempDir, neverAborted, textOf } from "./helpers.js";

const load = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => validateConfig(raw, env);
const xaiEntry = (config: Record<string, unknown>) => ({ plugins: { entries: { xai: { config } } } });

let fake: FakeXaiServer;
beforeAll(async () => {
  fake = await startFakeXaiServer();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.failWith = undefined;
});
afterAll(async () => {
  await fake?.close();
});

describe("the xAI key and base URL", () => {
  it("reads the plugin's webSearch.apiKey, then the xai model provider's key, then $XAI_API_KEY; an unset ${VAR} is no key", () => {
    const provider = { models: { providers: { xai: { baseUrl: "https://api.x.ai/v1", apiKey: "provider-key", models: [] } } } };
    expect(xaiApiKey(load({ ...xaiEntry({ webSearch: { apiKey: "plugin-key" } }), ...provider }).config, { XAI_API_KEY: "env-key" })).toBe("plugin-key");
    expect(xaiApiKey(load(provider).config, { XAI_API_KEY: "env-key" })).toBe("provider-key");
    expect(xaiApiKey(load({}).config, { XAI_API_KEY: " env-key " })).toBe("env-key");
    expect(xaiApiKey(load(xaiEntry({ webSearch: { apiKey: "${XAI_API_KEY}" } }), {}).config, {})).toBeUndefined();
    expect(xaiApiKey(load({}).config, { XAI_API_KEY: "  " })).toBeUndefined();
  });

  it("takes webSearch.baseUrl for every xAI tool, xSearch.baseUrl for x_search only", () => {
    const config = load(xaiEntry({ webSearch: { apiKey: "k", baseUrl: "https://proxy.example/xai/v1" }, xSearch: { baseUrl: "https://x.example/v1" } })).config;
    expect(xaiBaseUrl(load({}).config)).toBe("https://api.x.ai/v1");
    const setup = xaiToolsSetup(config, {});
    expect(setup.xSearch?.baseUrl).toBe("https://x.example/v1");
    expect(setup.codeExecution?.baseUrl).toBe("https://proxy.example/xai/v1");
  });

  it("accepts a SecretRef for the key and warns about keys it does not take, and about OpenClaw's older tools.web.x_search", () => {
    const loaded = load(
      {
        ...xaiEntry({ webSearch: { apiKey: { source: "env", provider: "default", id: "XAI_API_KEY" } }, xSearch: { mode: "fast" } }),
        tools: { web: { x_search: { enabled: true } } },
      },
      {
        XAI_API_KEY: "from-env",
      },
    );
    expect(loaded.config.plugins?.entries?.xai?.config?.webSearch?.apiKey).toBe("from-env");
    expect(loaded.warnings).toContainEqual(expect.stringContaining("plugins.entries.xai.config.xSearch.mode"));
    expect(loaded.warnings).toContainEqual(expect.stringContaining("plugins.entries.xai.config.xSearch"));
    expect(loaded.warnings).toContainEqual(expect.stringContaining("tools.web.x_search"));
  });

  it("refuses a timeout or maxTurns out of range", () => {
    expect(() => load(xaiEntry({ codeExecution: { timeoutSeconds: 0 } }))).toThrow(/codeExecution\.timeoutSeconds/);
    expect(() => load(xaiEntry({ xSearch: { maxTurns: 0 } }))).toThrow(/xSearch\.maxTurns/);
  });
});

describe("which turns get x_search and code_execution", () => {
  const key = { XAI_API_KEY: "k" };
  it("offers neither without an xAI key, even when enabled, and the load says so for each one enabled", () => {
    const loaded = load(xaiEntry({ xSearch: { enabled: true }, codeExecution: { enabled: true } }));
    expect(offeredXaiTools(xaiToolsSetup(loaded.config, {}), "xai")).toEqual({ xSearch: false, codeExecution: false });
    expect(loaded.warnings).toContainEqual(expect.stringMatching(/^plugins\.entries\.xai\.config\.xSearch\.enabled is true but no xAI key is set .*: x_search is not offered$/));
    expect(loaded.warnings).toContainEqual(expect.stringContaining("code_execution is not offered"));
    expect(load(xaiEntry({ xSearch: { enabled: true } }), { XAI_API_KEY: "k" }).warnings).toEqual([]);
  });

  it("with enabled omitted offers them only to an xai model; true to every model; false to none", () => {
    const omitted = xaiToolsSetup(load({}).config, key);
    expect(offeredXaiTools(omitted, "xai")).toEqual({ xSearch: true, codeExecution: true });
    expect(offeredXaiTools(omitted, "openai")).toEqual({ xSearch: false, codeExecution: false });
    expect(offeredXaiTools(omitted, undefined)).toEqual({ xSearch: false, codeExecution: false });
    const mixed = xaiToolsSetup(load(xaiEntry({ xSearch: { enabled: true }, codeExecution: { enabled: false } })).config, key);
    expect(offeredXaiTools(mixed, "openai")).toEqual({ xSearch: true, codeExecution: false });
    expect(offeredXaiTools(mixed, "xai")).toEqual({ xSearch: true, codeExecution: false });
  });

  it("uses OpenClaw's defaults: grok-4.7, 30 s, a 15-minute x_search cache, no maxTurns", () => {
    const setup = xaiToolsSetup(load({}).config, key);
    expect(setup.xSearch).toMatchObject({ model: "grok-4.7", timeoutMs: 30_000, cacheTtlMs: 900_000, inlineCitations: false });
    expect(setup.xSearch?.maxTurns).toBeUndefined();
    expect(setup.codeExecution).toMatchObject({ model: "grok-4.7", timeoutMs: 30_000 });
  });
});

describe("grok as the web_search provider", () => {
  it("is auto-detected from an xAI key after Brave and before Tavily", () => {
    expect(webSearchSetup(load({}).config, { XAI_API_KEY: "k", TAVILY_API_KEY: "t" }).host?.provider).toBe("grok");
    expect(webSearchSetup(load({}).config, { XAI_API_KEY: "k", BRAVE_API_KEY: "b" }).host?.provider).toBe("brave");
  });

  it("pinned without a key is not offered, with a load warning naming where the key goes", () => {
    const loaded = load({ tools: { web: { search: { provider: "grok" } } } }, {});
    expect(loaded.warnings).toContainEqual(expect.stringContaining('tools.web.search.provider is "grok" but no xAI key is set'));
    expect(webSearchSetup(loaded.config, {}).problem).toContain("XAI_API_KEY");
  });

  it("refuses filters it does not have by name, and answers with one synthesized answer", async () => {
    fake.answers.web_search = { text: "An answer.", citations: ["https://a.example/"] };
    const provider = grokSearchProvider({ apiKey: fake.key, baseUrl: fake.url, model: "grok-4.7", timeoutMs: 5_000 });
    await expect(provider.search({ query: "q", count: 5, freshness: "week" }, neverAborted)).rejects.toThrow(SearchArgumentError);
    await expect(provider.search({ query: "q", count: 5 }, neverAborted)).resolves.toEqual({ kind: "answer", content: "An answer.", citations: [{ url: "https://a.example/" }] });
  });
});

describe("xAI's answer", () => {
  const message = (text: string, annotations: unknown[] = []) => ({ type: "message", content: [{ type: "output_text", text, annotations }] });

  it("prefers the response's citations list, else the url_citation annotations; only http(s), each once", () => {
    const cited = { type: "url_citation", url: "https://b.example/", start_index: 0, end_index: 4 };
    expect(parseXaiAnswer({ output: [message("text", [cited])], citations: ["https://a.example/", "https://a.example/", "ftp://x"] }).citations).toEqual(["https://a.example/"]);
    const answer = parseXaiAnswer({ output: [{ type: "x_search_call" }, message("text", [cited, { type: "url_citation", url: "javascript:x" }])] });
    expect(answer.citations).toEqual(["https://b.example/"]);
    expect(answer.inlineCitations).toEqual([{ start_index: 0, end_index: 4, url: "https://b.example/" }]);
    expect(answer.outputTypes).toEqual(["x_search_call", "message"]);
  });

  it("cuts a long answer at 20,000 characters and marks it truncated; an answer without text is an error", () => {
    const answer = parseXaiAnswer({ output: [message("a".repeat(25_000))] });
    expect(answer.content).toHaveLength(20_000);
    expect(answer.truncated).toBe(true);
    expect(() => parseXaiAnswer({ output: [{ type: "code_interpreter_call" }] })).toThrow(XaiAnswerError);
  });

  it("never sends the key in clear text to a public host", async () => {
    const request = { baseUrl: "http://93.184.216.34/v1", apiKey: "secret", model: "m", input: "q", tool: { type: "web_search" }, timeoutMs: 1_000 };
    const failure = await askXai(request, neverAborted).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(XaiRequestError);
    expect((failure as Error).message).toContain("use https://");
    expect((failure as Error).message).not.toContain("secret");
  });
});

describe("x_search's arguments", () => {
  it("strips @, refuses handles both ways, more than 20, a date that is not a calendar date, or from_date after to_date", () => {
    expect(xSearchFilters({ query: "q", allowed_x_handles: ["@a", " b ", ""] })).toEqual({ allowed_x_handles: ["a", "b"] });
    expect(xSearchFilters({ query: "q", allowed_x_handles: ["a"], excluded_x_handles: ["b"] })).toContain("not both");
    expect(xSearchFilters({ query: "q", excluded_x_handles: Array.from({ length: 21 }, (_, i) => `h${i}`) })).toContain("at most 20");
    expect(xSearchFilters({ query: "q", from_date: "2026-02-30" })).toContain("not a date");
    expect(xSearchFilters({ query: "q", to_date: "March 1" })).toContain("not a date");
    expect(xSearchFilters({ query: "q", from_date: "2026-03-02", to_date: "2026-03-01" })).toContain("after to_date");
    expect(xSearchFilters({ query: "q", enable_video_understanding: true, enable_image_understanding: false })).toEqual({ enable_video_understanding: true });
  });

  it("x_search and code_execution say they are not set up when the services have no xAI tools, and refuse an empty query or task", async () => {
    const ctx = makeContext(makeTempDir());
    expect(errorOf(await createXSearchTool().execute({ query: "q" }, ctx, neverAborted)).error).toBe("XAI_TOOL_UNAVAILABLE");
    expect(errorOf(await createCodeExecutionTool().execute({ task: "t" }, ctx, neverAborted)).error).toBe("XAI_TOOL_UNAVAILABLE");
    const setup = xaiToolsSetup(load(xaiEntry({ webSearch: { apiKey: fake.key, baseUrl: fake.url } })).config, {});
    const withXai = makeContext(makeTempDir(), { xai: setup });
    expect(errorOf(await createXSearchTool().execute({ query: "  " }, withXai, neverAborted)).error).toBe("INVALID_ARGUMENT");
    expect(errorOf(await createCodeExecutionTool().execute({ task: "" }, withXai, neverAborted)).error).toBe("INVALID_ARGUMENT");
    expect(fake.requests).toHaveLength(0);
  });

  it("gives inline citations only when xSearch.inlineCitations is true", async () => {
    fake.answers.x_search = { text: "Posted today.", citations: ["https://x.com/a/status/1"] };
    const plain = xaiToolsSetup(load(xaiEntry({ webSearch: { apiKey: fake.key, baseUrl: fake.url }, xSearch: { cacheTtlMinutes: 0 } })).config, {});
    const inline = xaiToolsSetup(load(xaiEntry({ webSearch: { apiKey: fake.key, baseUrl: fake.url }, xSearch: { inlineCitations: true, cacheTtlMinutes: 0 } })).config, {});
    const run = async (xai: typeof plain) => JSON.parse(textOf(await createXSearchTool().execute({ query: "today" }, makeContext(makeTempDir(), { xai }), neverAborted)));
    expect((await run(plain)).inlineCitations).toBeUndefined();
    expect((await run(inline)).inlineCitations).toEqual([{ start_index: 0, end_index: 13, url: "https://x.com/a/status/1" }]);
    expect(fake.requests).toHaveLength(2);
  });
});

describe("where OpenClaw's policy puts them", () => {
  it("x_search is in group:web and code_execution in group:runtime, so the coding profile has both and messaging neither", () => {
    expect(expandToolNames(["group:web"])).toContain("x_search");
    expect(expandToolNames(["group:runtime"])).toContain("code_execution");
    const coding = compileToolList(profileAllowList("coding")!);
    const messaging = compileToolList(profileAllowList("messaging")!);
    expect([coding.matchOf("x_search"), coding.matchOf("code_execution")]).toEqual(["group:web", "group:runtime"]);
    expect([messaging.matchOf("x_search"), messaging.matchOf("code_execution")]).toEqual([undefined, undefined]);
  });
});
