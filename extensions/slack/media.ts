import type { InboundMedia } from "../../src/channels/types.js";

/** The fields of a Slack file object this adapter reads. */
interface SlackFile {
  name?: string;
  mimetype?: string;
  size?: number;
  url_private_download?: string;
  url_private?: string;
}

/**
 * The files of a message, each fetched with the bot token only when the pipeline asks. The token
 * goes only to Slack's file host or to the origin of `slackApiUrl` (a test fake): a file object
 * naming another host is skipped rather than sent the token.
 */
export function slackMedia(files: readonly unknown[], botToken: string, slackApiUrl: string): InboundMedia[] {
  const trusted = new Set(["https://files.slack.com", new URL(slackApiUrl).origin]);
  const media: InboundMedia[] = [];
  for (const raw of files) {
    if (!raw || typeof raw !== "object") continue;
    const file = raw as SlackFile;
    const url = file.url_private_download ?? file.url_private;
    if (!url || !URL.canParse(url) || !trusted.has(new URL(url).origin)) continue;
    const mimeType = file.mimetype?.split(";")[0]?.trim();
    media.push({
      kind: mimeType?.startsWith("image/") ? "image" : mimeType?.startsWith("audio/") ? "audio" : mimeType?.startsWith("video/") ? "video" : "document",
      ...(file.name ? { fileName: file.name } : {}),
      ...(mimeType ? { mimeType } : {}),
      ...(typeof file.size === "number" ? { sizeBytes: file.size } : {}),
      download: (maxBytes) => download(url, botToken, maxBytes),
    });
  }
  return media;
}

async function download(url: string, botToken: string, maxBytes: number): Promise<Buffer> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${botToken}` } });
  if (!response.ok) throw new Error(`Slack answered HTTP ${response.status} for the file`);
  const length = Number(response.headers.get("content-length"));
  if (Number.isFinite(length) && length > maxBytes) {
    await response.body?.cancel();
    throw new Error(`the file is ${length} bytes, over the limit`);
  }
  return Buffer.from(await response.arrayBuffer());
}
