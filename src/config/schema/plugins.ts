import { Type } from "@sinclair/typebox";
import { AcpxConfig } from "./acp.js";
import { BraveWebSearchConfig, DuckDuckGoWebSearchConfig, OllamaWebSearchConfig, SearxngWebSearchConfig, TavilyWebSearchConfig } from "./web-tools.js";

/**
 * `plugins.entries.<id>.config`: the settings of OpenClaw's bundled plugins this gateway builds in
 * (acpx, and the brave, tavily, searxng, duckduckgo and ollama web_search providers). Other plugins are unknown keys.
 */
export const PluginsSchema = Type.Object({
  entries: Type.Optional(
    Type.Object({
      acpx: Type.Optional(Type.Object({ config: Type.Optional(AcpxConfig) })),
      brave: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(BraveWebSearchConfig) })) })),
      searxng: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(SearxngWebSearchConfig) })) })),
      tavily: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(TavilyWebSearchConfig) })) })),
      duckduckgo: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(DuckDuckGoWebSearchConfig) })) })),
      ollama: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(OllamaWebSearchConfig) })) })),
    }),
  ),
});
