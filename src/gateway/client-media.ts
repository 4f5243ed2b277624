import fs from "node:fs";
import path from "node:path";
import { imageBody } from "../agents/media/index.js";
import { withDocumentsRead } from "../channels/dispatch/document-reading.js";
import { imageDescription } from "../channels/dispatch/image-descriptions.js";
import { DEFAULT_MEDIA_MAX_MB, InboundMediaStore } from "../channels/inbound/media-store.js";
import type { InboundMedia } from "../channels/types.js";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import type { ImageBlock } from "../models/messages.js";
import type { SessionStore } from "../sessions/store/index.js";

/** The image types clients may send (the HTTP API's default `allowedMimes`, `chat.send`'s images). */
export const CLIENT_IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/heic", "image/heif"];

/** A file a client sent with a message: its bytes, checked by the surface it came through. */
export interface ClientFile {
  kind: "image" | "document";
  mimeType?: string;
  bytes: Buffer;
  fileName?: string;
}

/**
 * Files an operator client (`chat.send` attachments) or the HTTP API (`image_url`,
 * `input_image`) sent with a message, made into what the agent reads, as a chat's files are: each
 * is saved under `<state>/media/inbound/` and named by a line after the message (its path and
 * type). JPEG, PNG, GIF and WebP images up to 5 MB also reach the model as image input in
 * the turn that answers, when its model takes images; for a model that takes none, the first image
 * is described as `tools.media` sets up. Text files and PDFs are also read, as a chat's documents
 * are. Other images (HEIC) and documents are saved and named only.
 */
export class ClientMedia {
  private readonly store: InboundMediaStore;

  constructor(private readonly deps: { stateDir: string; config: () => OpenClawConfig; sessions: () => Pick<SessionStore, "peek">; logger: Logger }) {
    this.store = new InboundMediaStore(path.join(deps.stateDir, "media", "inbound"));
  }

  /** The message with its images' lines, the image blocks for the model, and the files saved. */
  async forAgent(
    message: string,
    files: readonly ClientFile[],
    target: { agentId: string; sessionKey: string },
  ): Promise<{ message: string; images: ImageBlock[]; files: string[] }> {
    const config = this.deps.config();
    const limit = { maxMb: config.agents.defaults.mediaMaxMb ?? DEFAULT_MEDIA_MAX_MB, key: "agents.defaults.mediaMaxMb" };
    const saved = await this.store.saveAll(files.map(asInboundMedia), limit);
    const sessionModel = this.deps.sessions().peek(target.sessionKey)?.modelOverride;
    const description = await imageDescription({
      images: saved.imageFiles,
      config,
      agentId: target.agentId,
      ...(sessionModel ? { sessionModel } : {}),
      logger: this.deps.logger,
      logFields: { sessionKey: target.sessionKey },
    });
    const body = description ? imageBody(message, description) : message;
    const { lines, images } = await withDocumentsRead(saved, config, this.deps.logger, { sessionKey: target.sessionKey });
    return { message: [body, ...lines].filter((line) => line !== "").join("\n"), images, files: saved.files };
  }

  /** Removes saved files once nothing may read them (a stateless HTTP request's, after its turn). */
  discard(files: readonly string[]): void {
    for (const file of files) fs.rmSync(file, { force: true });
  }
}

function asInboundMedia(file: ClientFile): InboundMedia {
  return {
    kind: file.kind,
    ...(file.mimeType ? { mimeType: file.mimeType } : {}),
    sizeBytes: file.bytes.length,
    ...(file.fileName ? { fileName: file.fileName } : {}),
    download: async () => file.bytes,
  };
}
