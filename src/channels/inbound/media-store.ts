import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ImageBlock } from "../../models/messages.js";
import type { InboundMedia } from "../types.js";

/** `agents.defaults.mediaMaxMb` when unset. */
export const DEFAULT_MEDIA_MAX_MB = 20;

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "audio/ogg": ".ogg",
  "audio/mpeg": ".mp3",
  "video/mp4": ".mp4",
  "application/pdf": ".pdf",
  "text/plain": ".txt",
};

/** Image types the model APIs take as image input (OpenAI and Anthropic alike). */
const IMAGE_INPUT_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp"];
/** The largest image given as image input: Anthropic refuses images over 5 MB. */
export const IMAGE_INPUT_MAX_BYTES = 5 * 1024 * 1024;

/** What the saved files of one message give the model: a line per file, and the images among them. */
export interface SavedMedia {
  lines: string[];
  /** Saved images of a type and size models take as image input (used when the turn's model accepts images). */
  images: ImageBlock[];
  /** Saved voice notes and audio files, in the message's order (transcribed when tools.media.audio allows). */
  audio: SavedFile[];
  /** The files of `images`, in the same order (described for a model that takes no images). */
  imageFiles: SavedFile[];
  /** Every file saved, in the message's order. */
  files: string[];
  /** Saved documents, in the message's order (text files and PDFs are read for the model). */
  documents: SavedFile[];
}

export interface SavedFile {
  path: string;
  mimeType?: string;
  bytes: number;
  /** The name the sender gave the file. */
  name?: string;
}

/**
 * Saves the files inbound messages carry under `<state>/media/inbound/` (0600, a random name
 * keeping the file's extension) and says, in one line per file, what the model gets: the path, or
 * why the file was not saved (over the size limit, named by the key that set it; a failed download). Saved images
 * (JPEG, PNG, GIF, WebP up to 5 MB) are also returned as image blocks.
 */
/** The size limit for inbound files and the config key that set it (named when a file is over it). */
export interface MediaLimit {
  maxMb: number;
  key: string;
}

export class InboundMediaStore {
  constructor(private readonly dir: string) {}

  async saveAll(media: readonly InboundMedia[], limit: MediaLimit): Promise<SavedMedia> {
    const saved: SavedMedia = { lines: [], images: [], audio: [], imageFiles: [], files: [], documents: [] };
    for (const item of media) {
      const { line, image, file, written } = await this.save(item, limit);
      saved.lines.push(line);
      if (written) saved.files.push(written);
      if (image && file) {
        saved.images.push(image);
        saved.imageFiles.push(file);
      } else if (file && item.kind === "document") saved.documents.push(file);
      else if (file) saved.audio.push(file);
    }
    return saved;
  }

  /** `written`: the file saved, if it was; `file`: a saved recording or document, or (with `image`) a saved image a model may take. */
  private async save(item: InboundMedia, { maxMb, key }: MediaLimit): Promise<{ line: string; image?: ImageBlock; file?: SavedFile; written?: string }> {
    const maxBytes = Math.floor(maxMb * 1024 * 1024);
    const label = `${item.kind}${item.fileName ? ` "${item.fileName}"` : ""}`;
    if (item.sizeBytes !== undefined && item.sizeBytes > maxBytes) {
      return { line: `[media not saved: ${label} is ${formatSize(item.sizeBytes)}, over ${key} (${maxMb} MB)]` };
    }
    let bytes: Buffer;
    try {
      bytes = await item.download(maxBytes);
    } catch (error) {
      return { line: `[media not saved: ${label} could not be downloaded: ${error instanceof Error ? error.message : String(error)}]` };
    }
    if (bytes.length > maxBytes) return { line: `[media not saved: ${label} is ${formatSize(bytes.length)}, over ${key} (${maxMb} MB)]` };
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${randomUUID()}${extensionOf(item)}`);
    fs.writeFileSync(file, bytes, { mode: 0o600 });
    const line = `[media attached: ${file} (${label}${item.mimeType ? `, ${item.mimeType}` : ""}, ${formatSize(bytes.length)})]`;
    const saved: SavedFile = { path: file, bytes: bytes.length, ...(item.mimeType ? { mimeType: item.mimeType } : {}), ...(item.fileName ? { name: item.fileName } : {}) };
    if (item.kind === "audio" || item.kind === "document") return { line, file: saved, written: file };
    const asImage = item.kind === "image" && item.mimeType !== undefined && IMAGE_INPUT_TYPES.includes(item.mimeType) && bytes.length <= IMAGE_INPUT_MAX_BYTES;
    return asImage ? { line, image: { type: "image", data: bytes.toString("base64"), mimeType: item.mimeType! }, file: saved, written: file } : { line, written: file };
  }
}

function extensionOf(item: InboundMedia): string {
  const fromName = item.fileName ? path.extname(item.fileName).toLowerCase() : "";
  if (/^\.[a-z0-9]{1,8}$/.test(fromName)) return fromName;
  return (item.mimeType && EXTENSIONS[item.mimeType]) || "";
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
