import { type Static, type TLiteral, type TUnion, Type } from "@sinclair/typebox";
import type { ImageSettings } from "./openai-images.js";

/** The most images one call makes, and the most reference images one edit takes (OpenAI's limits through OpenClaw). */
export const IMAGE_GENERATE_MAX_COUNT = 4;
export const IMAGE_GENERATE_MAX_REFERENCES = 5;
/** A call's own `timeoutMs` is capped here, as OpenClaw caps it. */
export const IMAGE_GENERATE_MAX_TIMEOUT_MS = 600_000;
/** gpt-image models take prompts up to 32,000 characters. */
export const IMAGE_GENERATE_MAX_PROMPT_CHARS = 32_000;
/** The longest edge `size` may ask for (4K, OpenClaw's largest size). */
const MAX_EDGE = 3840;

/** One of a closed set of strings, typed as that set. */
function literals<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    { description },
  ) as unknown as TUnion<TLiteral<T[number]>[]>;
}

export const ImageGenerateParameters = Type.Object({
  action: Type.Optional(
    literals(["generate", "list", "status"], "generate (default); list: the image models set up here; status: a running generation (none: calls here wait for their images)."),
  ),
  prompt: Type.Optional(Type.String({ description: "What to draw, or how to change the reference images. Required to generate." })),
  model: Type.Optional(Type.String({ description: 'A provider/model to use instead of the configured ones, e.g. "openai/gpt-image-1.5" (only it is tried).' })),
  image: Type.Optional(Type.String({ description: "A workspace image to edit or follow (PNG, JPEG or WebP): the call becomes an edit." })),
  images: Type.Optional(Type.Array(Type.String(), { description: `Several workspace reference images (at most ${IMAGE_GENERATE_MAX_REFERENCES}, image included).` })),
  size: Type.Optional(Type.String({ description: '"auto" or WIDTHxHEIGHT: 1024x1024, 1536x1024, 1024x1536, 2048x2048, 3840x2160; the model decides which it takes.' })),
  aspectRatio: Type.Optional(Type.String({ description: 'Instead of size: e.g. "16:9", mapped to the closest of 1024x1024, 1536x1024 and 1024x1536.' })),
  resolution: Type.Optional(literals(["1K", "2K", "4K"], "Not sent to OpenAI's Images API, which takes size: give size instead.")),
  quality: Type.Optional(literals(["low", "medium", "high", "xhigh", "max", "auto"], "Quality, where the model supports it.")),
  outputFormat: Type.Optional(literals(["png", "jpeg", "webp"], "File format, where the model supports it.")),
  background: Type.Optional(literals(["transparent", "opaque", "auto"], "transparent needs png or webp and a model that supports it (gpt-image-1.5)")),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: IMAGE_GENERATE_MAX_COUNT, description: `Images to make (1-${IMAGE_GENERATE_MAX_COUNT}, default 1).` })),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: IMAGE_GENERATE_MAX_TIMEOUT_MS, description: "How long to wait for the provider (default: the configured limit)." })),
  filename: Type.Optional(Type.String({ description: "A name for the file(s) under images/ in the workspace (default: from the prompt)." })),
  openai: Type.Optional(
    Type.Object(
      {
        background: Type.Optional(literals(["transparent", "opaque", "auto"], "As background.")),
        moderation: Type.Optional(literals(["low", "auto"], "OpenAI's moderation level.")),
        outputCompression: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: "0-100, for jpeg and webp." })),
        user: Type.Optional(Type.String({ description: "An end-user id for OpenAI's abuse monitoring." })),
      },
      { description: "OpenAI-only options." },
    ),
  ),
});
export type ImageGenerateArgs = Static<typeof ImageGenerateParameters>;

/** A call's arguments checked and put the way the provider takes them. */
export interface CheckedImageRequest extends ImageSettings {
  /** Workspace paths of the reference images, in order, each once. */
  referencePaths: string[];
  model?: string;
  timeoutMs?: number;
  filename?: string;
  /** How a setting the call gave was turned into one the provider takes (`aspectRatio 16:9 → size 1536x1024`). */
  mapped: string[];
  /** Settings the call gave that are not sent, each with why: reported in the result, never dropped silently. */
  ignored: Record<string, string>;
}

export type ImageRequestCheck = { ok: true; request: CheckedImageRequest } | { ok: false; field: string; problem: string };

/** The sizes every gpt-image model takes, by their aspect ratio: where an `aspectRatio` lands. */
const PRESET_SIZES = [
  { size: "1024x1024", ratio: 1 },
  { size: "1536x1024", ratio: 1.5 },
  { size: "1024x1536", ratio: 1 / 1.5 },
] as const;

/**
 * Checks a generate call beyond its schema: a prompt, `size` as `auto` or WIDTHxHEIGHT (at most
 * 3840 a side), `aspectRatio` (a:b, 1:8 to 8:1) instead of size, a transparent background only
 * with png or webp, `openai.background` agreeing with `background`, and at most five reference
 * images. What the provider is not sent (`resolution`; `outputCompression` for a png) is listed in
 * `ignored`. OpenClaw's `fal` options are refused: fal's models do not run here.
 */
export function checkImageRequest(args: ImageGenerateArgs & { fal?: unknown }): ImageRequestCheck {
  const refuse = (field: string, problem: string): ImageRequestCheck => ({ ok: false, field, problem });
  const prompt = args.prompt?.trim() ?? "";
  if (!prompt) return refuse("prompt", "prompt is required to generate an image");
  if (prompt.length > IMAGE_GENERATE_MAX_PROMPT_CHARS) return refuse("prompt", `the prompt is ${prompt.length} characters; at most ${IMAGE_GENERATE_MAX_PROMPT_CHARS}`);
  if (args.fal !== undefined) return refuse("fal", "fal options are for fal's models, which this gateway does not run (only OpenAI's Images API is spoken)");
  const mapped: string[] = [];
  const ignored: Record<string, string> = {};

  let size: string | undefined;
  if (args.size !== undefined && args.aspectRatio !== undefined) return refuse("size", "give size or aspectRatio, not both");
  if (args.size !== undefined) {
    size = args.size.trim().toLowerCase().replace(/\s+/g, "");
    const problem = sizeProblem(size);
    if (problem) return refuse("size", problem);
  } else if (args.aspectRatio !== undefined) {
    const ratio = parseAspectRatio(args.aspectRatio);
    if (ratio === undefined) return refuse("aspectRatio", `"${args.aspectRatio}" is not an aspect ratio such as 16:9 (from 1:8 to 8:1)`);
    size = closestPreset(ratio);
    mapped.push(`aspectRatio ${args.aspectRatio.trim()} → size ${size}`);
  }
  if (args.resolution !== undefined) ignored.resolution = `${args.resolution}: OpenAI's Images API takes size, not resolution (give size, e.g. 2048x2048)`;

  const background = args.background ?? args.openai?.background;
  if (args.background && args.openai?.background && args.background !== args.openai.background) {
    return refuse("openai.background", `background is "${args.background}" and openai.background "${args.openai.background}": give one`);
  }
  if (background === "transparent" && args.outputFormat === "jpeg") return refuse("background", "a transparent background needs outputFormat png or webp, not jpeg");

  let outputCompression = args.openai?.outputCompression;
  if (outputCompression !== undefined && args.outputFormat !== "jpeg" && args.outputFormat !== "webp") {
    ignored["openai.outputCompression"] = `${outputCompression}: it applies to jpeg and webp output only (set outputFormat)`;
    outputCompression = undefined;
  }

  const referencePaths = [...new Set([args.image, ...(args.images ?? [])].map((p) => p?.trim()).filter((p): p is string => Boolean(p)))];
  if (referencePaths.length > IMAGE_GENERATE_MAX_REFERENCES) {
    return refuse("images", `${referencePaths.length} reference images; one edit takes at most ${IMAGE_GENERATE_MAX_REFERENCES}`);
  }
  const model = args.model?.trim();
  if (args.model !== undefined && !model) return refuse("model", "model is empty");

  return {
    ok: true,
    request: {
      prompt,
      count: args.count ?? 1,
      ...(size ? { size } : {}),
      ...(args.quality ? { quality: args.quality } : {}),
      ...(args.outputFormat ? { outputFormat: args.outputFormat } : {}),
      ...(background ? { background } : {}),
      ...(args.openai?.moderation ? { moderation: args.openai.moderation } : {}),
      ...(outputCompression !== undefined ? { outputCompression } : {}),
      ...(args.openai?.user?.trim() ? { user: args.openai.user.trim() } : {}),
      referencePaths,
      ...(model ? { model } : {}),
      ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
      ...(args.filename?.trim() ? { filename: args.filename.trim() } : {}),
      mapped,
      ignored,
    },
  };
}

function sizeProblem(size: string): string | undefined {
  if (size === "auto") return undefined;
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(size);
  if (!match) return `"${size}" is not "auto" or WIDTHxHEIGHT (e.g. 1024x1024)`;
  const [width, height] = [Number(match[1]), Number(match[2])];
  if (width < 1 || height < 1 || width > MAX_EDGE || height > MAX_EDGE) return `${size}: each side must be 1-${MAX_EDGE} pixels`;
  return undefined;
}

function parseAspectRatio(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!match) return undefined;
  const ratio = Number(match[1]) / Number(match[2]);
  return Number.isFinite(ratio) && ratio >= 1 / 8 && ratio <= 8 ? ratio : undefined;
}

function closestPreset(ratio: number): string {
  const distance = (preset: number) => Math.abs(Math.log(ratio) - Math.log(preset));
  return PRESET_SIZES.reduce((best, preset) => (distance(preset.ratio) < distance(best.ratio) ? preset : best)).size;
}
