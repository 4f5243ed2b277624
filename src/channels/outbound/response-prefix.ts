import { findAgentEntry } from "../../agents/agent-config.js";
import type { OpenClawConfig } from "../../config/index.js";

/** What a prefix's `{…}` names can read: the model that answered, and the session's thinking level. */
export interface PrefixContext {
  /** `provider/model` of the answer. */
  model?: string;
  thinkingLevel?: string;
}

/**
 * The text put before each reply in a chat, as OpenClaw's `responsePrefix`: the account's, else
 * the channel's, else `messages.responsePrefix`; `auto` is `[<identity.name>]` (nothing without a
 * name). `{model}`, `{modelFull}`, `{provider}`, `{thinkingLevel}` (`{think}`) and
 * `{identity.name}` are filled in; a name it cannot fill stays as written.
 */
export function responsePrefixFor(config: OpenClawConfig, agentId: string, accountPrefix: unknown, context: PrefixContext): string | undefined {
  const configured = typeof accountPrefix === "string" ? accountPrefix : config.messages?.responsePrefix;
  if (!configured) return undefined;
  const identityName = findAgentEntry(config, agentId)?.identity?.name?.trim() || undefined;
  if (configured === "auto") return identityName ? `[${identityName}]` : undefined;
  const slash = context.model?.indexOf("/") ?? -1;
  const provider = context.model && slash > 0 ? context.model.slice(0, slash) : undefined;
  const shortModel = context.model
    ? context.model
        .slice(slash + 1)
        .replace(/-\d{8}$/, "")
        .replace(/-latest$/, "")
    : undefined;
  const values: Record<string, string | undefined> = {
    model: shortModel,
    modelfull: context.model,
    provider,
    thinkinglevel: context.thinkingLevel ?? "off",
    think: context.thinkingLevel ?? "off",
    "identity.name": identityName,
    identityname: identityName,
  };
  return configured.replace(/\{([A-Za-z.]+)\}/g, (whole: string, name: string) => values[name.toLowerCase()] ?? whole);
}

/** `text` with the prefix and a space before it, unless it already starts with it or is the heartbeat's ack. */
export function withResponsePrefix(text: string, prefix: string | undefined): string {
  if (!prefix || !text || text.trim() === "HEARTBEAT_OK" || text.startsWith(prefix)) return text;
  return `${prefix} ${text}`;
}
