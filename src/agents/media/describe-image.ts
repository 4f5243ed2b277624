import fs from "node:fs/promises";
import type { OpenClawConfig } from "../../config/index.js";
import { createStreamModel, resolveModel } from "../../models/index.js";
import type { StreamModelFn } from "../types.js";
import type { DescriptionAttempt } from "./image-description-plan.js";
import { runMediaCommand } from "./media-command.js";
import { firstAnswer } from "./media-attempts.js";
import { DEFAULT_IMAGE_MAX_DIMENSION_PX, shrinkImages } from "./image-shrink.js";
import type { MediaFile } from "./media-file.js";

export type DescriptionOutcome = { kind: "described"; text: string; via: string } | { kind: "failed"; failures: string[] };

/**
 * Tries the attempts in order until one describes the image (firstAnswer: too large for one skips
 * it, a failure, an empty answer or a timeout goes to the next): a model gets the prompt and the
 * image in one message (an image entry names a model for images, so it is sent the image even when
 * its listing says text only); a command prints the description.
 */
export async function describeImage(
  file: MediaFile,
  attempts: readonly DescriptionAttempt[],
  context: { config: OpenClawConfig; env: NodeJS.ProcessEnv; streamModel?: StreamModelFn },
): Promise<DescriptionOutcome> {
  const outcome = await firstAnswer(
    file,
    attempts,
    (attempt, signal) => (attempt.kind === "cli" ? runMediaCommand(file, attempt, signal) : askModel(file, attempt, context, signal)),
    { noun: "description", emptyIsAnswer: false },
  );
  return outcome.ok ? { kind: "described", text: outcome.text, via: outcome.via } : { kind: "failed", failures: outcome.failures };
}

async function askModel(
  file: MediaFile,
  attempt: Extract<DescriptionAttempt, { kind: "model" }>,
  context: { config: OpenClawConfig; env: NodeJS.ProcessEnv; streamModel?: StreamModelFn },
  signal: AbortSignal,
): Promise<string> {
  const resolved = resolveModel(attempt.ref, context.config, context.env, { requireKey: true });
  if (!resolved.ok) throw new Error(resolved.message);
  // An image entry (or imageModel) names a model for images: it is sent the image whatever its listing says.
  const model = resolved.model.input.includes("image") ? resolved.model : { ...resolved.model, input: [...resolved.model.input, "image" as const] };
  // Scaled to imageMaxDimensionPx as the turn's own images are (kept whole when it cannot be).
  const [image] = await shrinkImages(
    [{ type: "image", data: (await fs.readFile(file.path)).toString("base64"), mimeType: file.mimeType ?? "image/jpeg" }],
    context.config.agents.defaults.imageMaxDimensionPx ?? DEFAULT_IMAGE_MAX_DIMENSION_PX,
  );
  const request = {
    model,
    systemPrompt: "",
    messages: [
      {
        role: "user" as const,
        content: [{ type: "text" as const, text: attempt.prompt }, image!],
        timestamp: Date.now(),
      },
    ],
    tools: [],
    maxTokens: Math.min(model.maxTokens, 1024),
  };
  let text = "";
  for await (const event of (context.streamModel ?? createStreamModel())(request, signal)) {
    if (event.type === "text_delta") text += event.delta;
    else if (event.type === "error") throw new Error(event.error);
    else if (event.type === "done") break;
  }
  return text;
}

/** OpenClaw's `[Image]` block: the message's own text (a caption) first when it has one, then the description. */
export function imageBody(userText: string, description: string): string {
  const caption = /^<media:[a-z_]+>$/.test(userText.trim()) ? "" : userText.trim();
  return `[Image]\n${caption ? `User text:\n${caption}\n` : ""}Description:\n${description}`;
}
