import { Type } from "@sinclair/typebox";
import { AcpxConfig } from "./acp.js";
import { XaiPluginConfig } from "./xai-tools.js";
import {
  BraveWebSearchConfig,
  DuckDuckGoWebSearchConfig,
  ExaWebSearchConfig,
  GeminiWebSearchConfig,
  OllamaWebSearchConfig,
  PerplexityWebSearchConfig,
  SearxngWebSearchConfig,
  TavilyWebSearchConfig,
} from "./web-tools.js";

/**
 * `plugins.entries.<id>.config`: the settings of OpenClaw's bundled plugins this gateway builds in
 * (acpx; the brave, google (Gemini), perplexity, exa, tavily, searxng, duckduckgo and ollama web_search providers; xai: the grok
 * web_search provider, x_search and code_execution). Other plugins are unknown keys.
 */
export const PluginsSchema = Type.Object({
  entries: Type.Optional(
    Type.Object({
      acpx: Type.Optional(Type.Object({ config: Type.Optional(AcpxConfig) })),
      brave: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(BraveWebSearchConfig) })) })),
      perplexity: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(PerplexityWebSearchConfig) })) })),
      google: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(GeminiWebSearchConfig) })) })),
      exa: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(ExaWebSearchConfig) })) })),
      searxng: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(SearxngWebSearchConfig) })) })),
      tavily: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(TavilyWebSearchConfig) })) })),
      duckduckgo: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(DuckDuckGoWebSearchConfig) })) })),
      ollama: Type.Optional(Type.Object({ config: Type.Optional(Type.Object({ webSearch: Type.Optional(OllamaWebSearchConfig) })) })),
      xai: Type.Optional(Type.Object({ config: Type.Optional(XaiPluginConfig) })),
    }),
  ),
});
