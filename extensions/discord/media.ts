import type { Attachment } from "discord.js";
import type { InboundMedia } from "../../src/channels/types.js";

/** A message's attachments, each fetched from Discord's CDN only when the pipeline asks. */
export function discordMedia(attachments: Iterable<Attachment>): InboundMedia[] {
  return [...attachments].map((attachment) => {
    const mimeType = attachment.contentType?.split(";")[0]?.trim();
    return {
      kind: kindOf(mimeType),
      fileName: attachment.name,
      ...(mimeType ? { mimeType } : {}),
      sizeBytes: attachment.size,
      download: (maxBytes: number) => download(attachment.url, maxBytes),
    };
  });
}

function kindOf(mimeType: string | undefined): InboundMedia["kind"] {
  if (mimeType?.startsWith("image/")) return "image";
  if (mimeType?.startsWith("audio/")) return "audio";
  if (mimeType?.startsWith("video/")) return "video";
  return "document";
}

async function download(url: string, maxBytes: number): Promise<Buffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Discord's CDN answered HTTP ${response.status}`);
  const length = Number(response.headers.get("content-length"));
  if (Number.isFinite(length) && length > maxBytes) {
    await response.body?.cancel();
    throw new Error(`the file is ${length} bytes, over the limit`);
  }
  return Buffer.from(await response.arrayBuffer());
}
