import { fileURLToPath } from "node:url";
import type { ImageBlock, UserMessage } from "../../models/messages.js";
import { imageSize } from "./image-dimensions.js";
import { runIsolatedChild } from "./isolated-child.js";

/** OpenClaw's `agents.defaults.imageMaxDimensionPx` default: the longest side an image reaches the model with. */
export const DEFAULT_IMAGE_MAX_DIMENSION_PX = 1200;

/** Formats that are shrunk; a GIF is passed as it is (its frames would be lost). */
const SHRINKABLE = new Set(["image/png", "image/jpeg", "image/jpg", "image/webp"]);
/** An image declaring more pixels than this is not decoded (a pixel bomb): it is passed as it is. */
const MAX_DECODED_PIXELS = 100_000_000;
const CHILD_HEAP_MB = 512;
const TIMEOUT_MS = 30_000;
const MAX_REPLY_BYTES = 256 * 1024 * 1024;
const CHILD_SCRIPT = fileURLToPath(new URL("./image-shrink-child.js", import.meta.url));

export interface ShrinkChildRequest {
  images: { data: string; mimeType: string }[];
}
export interface ShrunkImage {
  data: string;
  mimeType: string;
  width: number;
  height: number;
}
/** One image's outcome: scaled, null when it already fit once upright, or why it could not be read. */
export type ShrinkOutcome = ShrunkImage | null | { error: string };
export type ShrinkChildReply = { ok: true; images: ShrinkOutcome[] } | { ok: false; error: string };

/**
 * The blocks with every image whose longest side is over `maxSidePx` scaled down to it, as
 * OpenClaw's `imageMaxDimensionPx` does before a provider call: fewer vision tokens and a smaller
 * request. Images that fit, GIFs, unknown formats and pixel bombs are kept as they are, and so is
 * every image when the shrinker fails (`onFailure` hears why): the model still gets the picture.
 * Decoding runs in a child process of its own (image-shrink-child.ts); nothing is started when no
 * image needs it.
 */
export async function shrinkImages(blocks: readonly ImageBlock[], maxSidePx: number, onFailure?: (reason: string) => void): Promise<ImageBlock[]> {
  const oversized = blocks.flatMap((block, index) => (needsShrinking(block, maxSidePx) ? [index] : []));
  if (oversized.length === 0) return [...blocks];
  let reply: ShrinkChildReply;
  try {
    reply = await runShrinker({ images: oversized.map((i) => ({ data: blocks[i]!.data, mimeType: blocks[i]!.mimeType })) }, maxSidePx);
  } catch (err) {
    onFailure?.((err as Error).message);
    return [...blocks];
  }
  if (!reply.ok) {
    onFailure?.(reply.error);
    return [...blocks];
  }
  const out = [...blocks];
  oversized.forEach((blockIndex, i) => {
    const outcome = reply.images[i];
    if (!outcome) return;
    if ("error" in outcome) onFailure?.(`it could not be decoded (${outcome.error})`);
    else out[blockIndex] = { type: "image", data: outcome.data, mimeType: outcome.mimeType };
  });
  return out;
}

/** The messages with their images shrunk as `shrinkImages` does; the same array when none holds an image. */
export async function shrinkMessageImages(messages: UserMessage[], maxSidePx: number, onFailure?: (reason: string) => void): Promise<UserMessage[]> {
  if (!messages.some((m) => Array.isArray(m.content) && m.content.some((block) => block.type === "image"))) return messages;
  return Promise.all(
    messages.map(async (message) => (Array.isArray(message.content) ? { ...message, content: await shrinkContentImages(message.content, maxSidePx, onFailure) } : message)),
  );
}

/** A message's or tool result's content with its image blocks shrunk as `shrinkImages` does, every other block in place. */
export async function shrinkContentImages<B extends { type: string }>(
  content: readonly (B | ImageBlock)[],
  maxSidePx: number,
  onFailure?: (reason: string) => void,
): Promise<(B | ImageBlock)[]> {
  const images = content.filter((block): block is ImageBlock => block.type === "image");
  if (images.length === 0) return [...content];
  const shrunk = await shrinkImages(images, maxSidePx, onFailure);
  let next = 0;
  return content.map((block) => (block.type === "image" ? shrunk[next++]! : block));
}

/** Whether the block's header says it is a shrinkable image over `maxSidePx` and not a pixel bomb. */
function needsShrinking(block: ImageBlock, maxSidePx: number): boolean {
  if (!SHRINKABLE.has(block.mimeType.toLowerCase())) return false;
  // Enough of the base64 for any header the size reader looks at (JPEG's can follow large EXIF segments).
  const size = imageSize(Buffer.from(block.data.slice(0, 256 * 1024), "base64"));
  if (!size) return false;
  return Math.max(size.width, size.height) > maxSidePx && size.width * size.height <= MAX_DECODED_PIXELS;
}

function runShrinker(request: ShrinkChildRequest, maxSidePx: number): Promise<ShrinkChildReply> {
  return runIsolatedChild(CHILD_SCRIPT, [String(maxSidePx)], JSON.stringify(request), {
    heapMb: CHILD_HEAP_MB,
    timeoutMs: TIMEOUT_MS,
    maxReplyBytes: MAX_REPLY_BYTES,
  }) as Promise<ShrinkChildReply>;
}
