import type { Api } from "grammy";
import type { Message } from "grammy/types";
import type { InboundMedia } from "../../src/channels/types.js";

export interface TelegramFileSource {
  api: Api;
  token: string;
  apiRoot: string;
}

/**
 * The files a message carries — the largest size of a photo, a document, a voice note, an audio
 * file, a video — each fetched only when the pipeline asks (`getFile`, then the Bot API's file
 * URL). Errors never quote the URL: it holds the bot token.
 */
export function telegramMedia(message: Message, source: TelegramFileSource): InboundMedia[] {
  const media: InboundMedia[] = [];
  const add = (fileId: string, item: Omit<InboundMedia, "download">) => media.push({ ...item, download: (maxBytes) => downloadFile(source, fileId, maxBytes) });
  const photo = message.photo?.at(-1);
  if (photo) add(photo.file_id, { kind: "image", mimeType: "image/jpeg", ...size(photo.file_size) });
  const { document, voice, audio, video } = message;
  if (document) {
    const kind = document.mime_type?.startsWith("image/") ? "image" : "document";
    add(document.file_id, { kind, ...named(document.file_name, document.mime_type), ...size(document.file_size) });
  }
  if (voice) add(voice.file_id, { kind: "audio", mimeType: voice.mime_type ?? "audio/ogg", ...size(voice.file_size) });
  if (audio) add(audio.file_id, { kind: "audio", ...named(audio.file_name, audio.mime_type), ...size(audio.file_size) });
  if (video) add(video.file_id, { kind: "video", ...named(video.file_name, video.mime_type), ...size(video.file_size) });
  return media;
}

async function downloadFile(source: TelegramFileSource, fileId: string, maxBytes: number): Promise<Buffer> {
  const file = await source.api.getFile(fileId);
  if (!file.file_path) throw new Error("Telegram gave no file path (files over 20 MB cannot be fetched by bots)");
  if (file.file_size !== undefined && file.file_size > maxBytes) throw new Error(`the file is ${file.file_size} bytes, over the limit`);
  const response = await fetch(`${source.apiRoot.replace(/\/$/, "")}/file/bot${source.token}/${file.file_path}`);
  if (!response.ok) throw new Error(`Telegram answered HTTP ${response.status} for the file`);
  const length = Number(response.headers.get("content-length"));
  if (Number.isFinite(length) && length > maxBytes) {
    await response.body?.cancel();
    throw new Error(`the file is ${length} bytes, over the limit`);
  }
  return Buffer.from(await response.arrayBuffer());
}

function size(bytes: number | undefined): { sizeBytes?: number } {
  return bytes === undefined ? {} : { sizeBytes: bytes };
}

function named(fileName: string | undefined, mimeType: string | undefined): { fileName?: string; mimeType?: string } {
  return { ...(fileName ? { fileName } : {}), ...(mimeType ? { mimeType } : {}) };
}
