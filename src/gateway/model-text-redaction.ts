import type { OpenClawConfig } from "../config/index.js";
import { TraceRedactor } from "../traces/redaction.js";

/**
 * The redaction for stored text the gateway hands back to a model (the session tools: sessions_history, sessions_list's last messages, sessions_search snippets):
 * the one run traces get — the config's credentials and SecretRef values, secret environment
 * values, `logging.redactPatterns` and common credential shapes become `[redacted]` — built for
 * the config in force and rebuilt when it changes.
 */
export function modelTextRedaction(config: () => OpenClawConfig, env: NodeJS.ProcessEnv): (text: string) => string {
  let cached: { config: OpenClawConfig; redactor: TraceRedactor } | undefined;
  return (text) => {
    const current = config();
    if (cached?.config !== current) cached = { config: current, redactor: new TraceRedactor(current, env) };
    return cached.redactor.text(text);
  };
}
