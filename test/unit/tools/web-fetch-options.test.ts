import { describe, expect, it } from "vitest";
import { createAvailableTools, createCoreTools } from "../../../src/agents/tools/index.js";
import { webFetchOptionsFromConfig } from "../../../src/agents/web-fetch-options.js";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";

const configWith = (fetch: Record<string, unknown>) => applyDefaults({ tools: { web: { fetch } } } as never) as OpenClawConfig;

describe("webFetchOptionsFromConfig", () => {
  it("without tools.web.fetch offers web_fetch with the tool's own defaults", () => {
    expect(webFetchOptionsFromConfig(applyDefaults({}) as OpenClawConfig)).toEqual({ enabled: true, options: {} });
  });

  it("turns every tools.web.fetch key into the tool's option, seconds and minutes into milliseconds", () => {
    const setup = webFetchOptionsFromConfig(
      configWith({ maxChars: 5_000, maxCharsCap: 8_000, maxResponseBytes: 100_000, timeoutSeconds: 12, maxRedirects: 0, userAgent: "Bot/1", cacheTtlMinutes: 0 }),
    );
    expect(setup).toEqual({
      enabled: true,
      options: { maxChars: 5_000, maxCharsCap: 8_000, maxResponseBytes: 100_000, timeoutMs: 12_000, maxRedirects: 0, userAgent: "Bot/1", cacheTtlMs: 0 },
    });
    expect(webFetchOptionsFromConfig(configWith({ cacheTtlMinutes: 30 })).options).toEqual({ cacheTtlMs: 1_800_000 });
    expect(webFetchOptionsFromConfig(configWith({ readability: false })).options).toEqual({ readability: false });
  });

  it("enabled: false leaves web_fetch out of the core and available tools", () => {
    const webFetch = webFetchOptionsFromConfig(configWith({ enabled: false }));
    expect(webFetch.enabled).toBe(false);
    expect(createCoreTools({ webFetch }).map((t) => t.name)).toEqual(["read", "write", "edit", "apply_patch", "exec", "process"]);
    const available = createAvailableTools({ webFetch, memory: false, sessionTools: true, messenger: false, cron: false, gateway: false, viewImage: "off", askUser: false }).map(
      (t) => t.name,
    );
    expect(available).not.toContain("web_fetch");
    expect(available).toContain("sessions_spawn");
  });

  it("the configured limits reach the tool the lists offer", () => {
    const webFetch = webFetchOptionsFromConfig(configWith({ maxChars: 2_000, maxCharsCap: 4_000 }));
    const tool = createCoreTools({ webFetch }).find((t) => t.name === "web_fetch")!;
    expect(JSON.stringify(tool.parameters)).toContain("(default 2000, at most 4000)");
  });
});
