import type { OpenClawConfig } from "../../config/index.js";
import { mediaEntryCapabilities } from "../../config/media-entry-capabilities.js";

/** One way to describe an image, in the order they are tried. */
export type DescriptionAttempt =
  | ({ kind: "model"; ref: string } & DescriptionLimits)
  | ({ kind: "cli"; command: string; args: string[] } & DescriptionLimits)
  | { kind: "unusable"; label: string; reason: string };

interface DescriptionLimits {
  label: string;
  prompt: string;
  maxBytes: number;
  maxChars: number;
  timeoutMs: number;
}

export const IMAGE_DEFAULTS = { prompt: "Describe the image.", maxChars: 500, maxBytes: 10 * 1024 * 1024, timeoutSeconds: 60 } as const;

/**
 * The attempts at describing an image: the `tools.media.models` entries for images, in order
 * (a provider entry is the chat model `<provider>/<model>`; a command prints the description),
 * else `agents.defaults.imageModel` and its fallbacks. `tools.media.image.enabled: false` turns it off.
 */
export function imageDescriptionPlan(config: OpenClawConfig): DescriptionAttempt[] {
  const settings = config.tools?.media?.image ?? {};
  if (settings.enabled === false) return [];
  const defaults = {
    prompt: settings.prompt ?? IMAGE_DEFAULTS.prompt,
    maxBytes: settings.maxBytes ?? IMAGE_DEFAULTS.maxBytes,
    maxChars: settings.maxChars ?? IMAGE_DEFAULTS.maxChars,
    timeoutMs: (settings.timeoutSeconds ?? IMAGE_DEFAULTS.timeoutSeconds) * 1000,
  };
  const entries = (config.tools?.media?.models ?? []).filter((entry) => mediaEntryCapabilities(entry).includes("image"));
  if (entries.length === 0) return imageModelRefs(config).map((ref) => ({ kind: "model", ref, label: ref, ...defaults }));
  return entries.map((entry): DescriptionAttempt => {
    const limits = {
      ...defaults,
      ...(entry.prompt ? { prompt: entry.prompt } : {}),
      ...(entry.maxBytes ? { maxBytes: entry.maxBytes } : {}),
      ...(entry.maxChars ? { maxChars: entry.maxChars } : {}),
      ...(entry.timeoutSeconds ? { timeoutMs: entry.timeoutSeconds * 1000 } : {}),
    };
    if (entry.type === "cli") {
      const label = `cli:${entry.command ?? "(no command)"}`;
      if (!entry.command || !entry.args?.length) return { kind: "unusable", label, reason: "a command entry needs command and args (pass the file with {{AttachmentPath}})" };
      return { kind: "cli", command: entry.command, args: entry.args, label, ...limits };
    }
    if (!entry.provider || !entry.model)
      return { kind: "unusable", label: `${entry.provider ?? "(no provider)"}/${entry.model ?? "(no model)"}`, reason: "an image entry needs provider and model" };
    const ref = `${entry.provider}/${entry.model}`;
    return { kind: "model", ref, label: ref, ...limits };
  });
}

function imageModelRefs(config: OpenClawConfig): string[] {
  const imageModel = config.agents.defaults.imageModel;
  if (typeof imageModel === "string") return [imageModel];
  return [imageModel?.primary, ...(imageModel?.fallbacks ?? [])].filter((ref): ref is string => typeof ref === "string" && ref.length > 0);
}
