// The image shrinker's own process (image-shrink.ts starts one per batch): the images arrive on
// stdin as one JSON object, the longest side allowed as the first argument; one JSON line leaves
// on stdout. Images come from chat senders, web pages and tools, so they are decoded here, where a
// crash or a pixel bomb cannot take the gateway down.
import { createCanvas, loadImage } from "@napi-rs/canvas";
import type { ShrinkChildReply, ShrinkChildRequest, ShrinkOutcome, ShrunkImage } from "./image-shrink.js";

async function main(): Promise<void> {
  const maxSide = Number(process.argv[2]);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  let reply: ShrinkChildReply;
  try {
    const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ShrinkChildRequest;
    const images: ShrinkOutcome[] = [];
    for (const image of request.images) {
      try {
        images.push(await shrink(Buffer.from(image.data, "base64"), image.mimeType, maxSide));
      } catch (err) {
        images.push({ error: (err as Error).message ?? String(err) });
      }
    }
    reply = { ok: true, images };
  } catch (err) {
    reply = { ok: false, error: (err as Error).message ?? String(err) };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}

/**
 * The image scaled so its longest side is `maxSide`, upright (the decoder applies EXIF
 * orientation), in its own format (JPEG at quality 85); null when it already fits once upright.
 */
async function shrink(bytes: Buffer, mimeType: string, maxSide: number): Promise<ShrunkImage | null> {
  const image = await loadImage(bytes);
  const scale = maxSide / Math.max(image.width, image.height);
  if (scale >= 1) return null;
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = createCanvas(width, height);
  canvas.getContext("2d").drawImage(image, 0, 0, width, height);
  const encoded = mimeType === "image/png" ? await canvas.encode("png") : mimeType === "image/webp" ? await canvas.encode("webp", 85) : await canvas.encode("jpeg", 85);
  return { data: encoded.toString("base64"), mimeType: mimeType === "image/png" || mimeType === "image/webp" ? mimeType : "image/jpeg", width, height };
}

void main();
