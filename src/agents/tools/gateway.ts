import { Type } from "@sinclair/typebox";
import { ConfigError, getConfigValue } from "../../config/index.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool, ToolResult } from "../types.js";

/** The most config.get returns in one answer; a larger config is read a part at a time. */
export const CONFIG_GET_MAX_CHARS = 12_000;

const GatewayParameters = Type.Object({
  action: Type.Union([Type.Literal("config.get"), Type.Literal("config.schema.lookup")], { description: "config.get | config.schema.lookup" }),
  path: Type.Optional(
    Type.String({ description: 'A dotted config key, e.g. agents.defaults.model or channels.telegram. Required for config.schema.lookup ("." is the top level).' }),
  ),
});

/**
 * The gateway's own config, read: `config.get` (the file's settings with defaults, secrets
 * redacted, and the hash an edit names; one part with `path`) and `config.schema.lookup` (what a
 * key may hold, whether a change applies live, and its keys). Owner-only; it changes nothing.
 */
export function createGatewayTool(): AgentTool<typeof GatewayParameters> {
  return {
    name: "gateway",
    ownerOnly: true,
    description:
      "Read this gateway's config: action config.get (optionally one part, by path; secrets are redacted) or config.schema.lookup " +
      "(what a key may hold and whether changing it needs a restart). It changes nothing: the owner edits the config.",
    parameters: GatewayParameters,
    async execute(args, ctx) {
      const host = ctx.services.gateway;
      if (!host) return toolError(TOOL_ERRORS.gatewayUnavailable());
      const path = args.path?.trim();
      if (args.action === "config.schema.lookup") {
        if (!path) return toolError(TOOL_ERRORS.argumentsInvalid("path", 'config.schema.lookup needs a path ("." for the top level)'));
        const found = host.schemaLookup(path);
        return found ? json({ ok: true, result: found }) : toolError(TOOL_ERRORS.configSchemaPathNotFound(path));
      }
      let snapshot: ReturnType<typeof host.configSnapshot>;
      try {
        snapshot = host.configSnapshot();
      } catch (error) {
        if (error instanceof ConfigError) return toolError(TOOL_ERRORS.configUnreadable(error.message));
        throw error;
      }
      return configGet(snapshot, path);
    },
  };
}

function configGet(snapshot: Record<string, unknown> & { config: unknown; hash: string | null }, path: string | undefined): ToolResult {
  if (!path) {
    const text = JSON.stringify({ ok: true, result: snapshot }, null, 2);
    return text.length > CONFIG_GET_MAX_CHARS ? toolError(TOOL_ERRORS.configTooLarge(text.length, CONFIG_GET_MAX_CHARS)) : toolText(text);
  }
  if (snapshot.config === null) {
    const issues = (snapshot.issues as { message: string }[] | undefined)?.map((i) => i.message).join("; ");
    return toolError(TOOL_ERRORS.configUnreadable(issues || "the file is not valid"));
  }
  let found: { found: boolean; value?: unknown };
  try {
    found = getConfigValue(snapshot.config, path);
  } catch (error) {
    if (error instanceof ConfigError) return toolError(TOOL_ERRORS.argumentsInvalid("path", error.message));
    throw error;
  }
  if (!found.found) return toolError(TOOL_ERRORS.configPathNotFound(path));
  const text = JSON.stringify({ ok: true, result: { hash: snapshot.hash, path, config: found.value } }, null, 2);
  return text.length > CONFIG_GET_MAX_CHARS ? toolError(TOOL_ERRORS.configTooLarge(text.length, CONFIG_GET_MAX_CHARS)) : toolText(text);
}

function json(value: object): ToolResult {
  return toolText(JSON.stringify(value, null, 2));
}
