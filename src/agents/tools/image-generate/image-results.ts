import { toolError, toolText } from "../../tool-result.js";
import { TOOL_ERRORS } from "../../tool-errors.js";
import type { ImageGenerationHost, ToolResult } from "../../types.js";
import { formatBytes } from "../read.js";
import type { SavedImage } from "./image-files.js";
import type { CheckedImageRequest } from "./image-generate-params.js";
import type { ImageFailure } from "./openai-images.js";

/** One model's failed attempt, named. */
export type AttemptFailure = ImageFailure & { ref: string };

/**
 * The answer to a call that made images: where each was saved, with which model and settings,
 * what was mapped or not sent, and that nobody has seen them yet: the message tool's `file`
 * sends one to a chat. The attempts that failed before it are listed too.
 */
export function savedImagesResult(ref: string, request: CheckedImageRequest, saved: readonly SavedImage[], earlier: readonly AttemptFailure[], revisedPrompt?: string): ToolResult {
  const settings = [
    request.size && `size ${request.size}`,
    request.quality && `quality ${request.quality}`,
    request.outputFormat && `format ${request.outputFormat}`,
    request.background && `background ${request.background}`,
    request.referencePaths.length > 0 && `editing ${request.referencePaths.join(", ")}`,
  ].filter(Boolean);
  const lines = [
    `Generated ${saved.length} image${saved.length === 1 ? "" : "s"} with ${ref}${settings.length > 0 ? ` (${settings.join(", ")})` : ""}, saved in the workspace:`,
    ...saved.map((image) => `- ${image.path} (${image.mimeType}, ${formatBytes(image.bytes)})`),
  ];
  if (saved.length < request.count) lines.push(`The provider returned ${saved.length} of the ${request.count} asked for.`);
  if (request.mapped.length > 0) lines.push(`Mapped: ${request.mapped.join("; ")}.`);
  const ignored = Object.entries(request.ignored);
  if (ignored.length > 0) lines.push(`Not sent: ${ignored.map(([key, why]) => `${key}=${why}`).join("; ")}.`);
  if (earlier.length > 0) lines.push(`Tried first: ${describeFailures(earlier)}.`);
  if (revisedPrompt) lines.push(`The provider revised the prompt to: ${revisedPrompt}`);
  lines.push(
    `The user has not seen ${saved.length === 1 ? "it" : "them"} yet: to share one in a chat, send it with the message tool's file (file: "${saved[0]!.path}"); otherwise tell the user the path.`,
  );
  return toolText(lines.join("\n"), {
    model: ref,
    images: saved,
    ...(request.size ? { size: request.size } : {}),
    ...(request.mapped.length > 0 ? { mapped: request.mapped } : {}),
    ...(ignored.length > 0 ? { ignoredOverrides: request.ignored } : {}),
    ...(earlier.length > 0 ? { failedAttempts: earlier } : {}),
    ...(revisedPrompt ? { revisedPrompt } : {}),
  });
}

/**
 * Every attempt failed: one error naming each attempt's cause. Its code is the most telling: a
 * refused prompt whenever one was (the model must not resend it), else the one kind every
 * attempt shared (a key, a timeout), else a provider failure.
 */
export function failedAttemptsResult(failures: readonly AttemptFailure[]): ToolResult {
  const text = describeFailures(failures);
  const details = { failedAttempts: failures };
  if (failures.some((f) => f.kind === "refused")) return toolError(TOOL_ERRORS.imagePromptRefused(text), details);
  const kinds = new Set(failures.map((f) => f.kind));
  if (kinds.size === 1 && kinds.has("auth")) return toolError(TOOL_ERRORS.imageProviderAuth(text), details);
  if (kinds.size === 1 && kinds.has("timeout")) return toolError(TOOL_ERRORS.imageGenerationTimeout(text), details);
  return toolError(TOOL_ERRORS.imageProviderFailed(text), details);
}

/** action "list": the models tried, in order, and which can run. */
export function imageModelsList(host: ImageGenerationHost): ToolResult {
  const models = host.candidates.map((c) => (c.kind === "provider" ? { model: c.ref, usable: true } : { model: c.ref, usable: false, reason: c.reason }));
  const lines = models.map((m, index) => `${index + 1}. ${m.model}${m.usable ? "" : ` (skipped: ${m.reason})`}`);
  return toolText(
    [
      "Image models, tried in this order until one makes the images (all speak OpenAI's Images API):",
      ...lines,
      `Each attempt waits up to ${Math.round(host.timeoutMs / 1000)} s. A call's model tries only that one.`,
    ].join("\n"),
    { models, timeoutMs: host.timeoutMs },
  );
}

/** Each attempt as `ref: reason`, a provider's closing period dropped (the sentence ends once, after them all). */
function describeFailures(failures: readonly AttemptFailure[]): string {
  return failures.map((f) => `${f.ref}: ${f.reason.replace(/[.\s]+$/, "")}`).join("; ");
}
