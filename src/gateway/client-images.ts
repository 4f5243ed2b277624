import fs from "node:fs";
import path from "node:path";
import { imageBody } from "../agents/media/index.js";
import { imageDescription } from "../channels/dispatch/image-descriptions.js";
import { DEFAULT_MEDIA_MAX_MB, InboundMediaStore } from "../channels/inbound/media-store.js";
import type { InboundMedia } from "../channels/types.js";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import type { ImageBlock } from "../models/messages.js";
import type { SessionStore } from "../sessions/store/index.js";

/** An image a client sent with a message: its bytes, checked by the surface it came through. */
export interface ClientImage {
  mimeType: string;
  bytes: Buffer;
  fileName?: string;
}

/**
 * Images an operator client (`chat.send` attachments) or the HTTP API (`image_url`,
 * `input_image`) sent with a message, made into what the agent reads, as a chat photo is: each is
 * saved under `<state>/media/inbound/` and named by a line after the message; JPEG, PNG, GIF and
 * WebP up to 5 MB also reach the model as image input in the turn that answers, when its model
 * takes images; for a model that takes none, the first image is described as `tools.media` sets
 * up. Other types (HEIC) are saved and named only.
 */
export class ClientImages {
  private readonly store: InboundMediaStore;

  constructor(private readonly deps: { stateDir: string; config: () => OpenClawConfig; sessions: () => Pick<SessionStore, "peek">; logger: Logger }) {
    this.store = new InboundMediaStore(path.join(deps.stateDir, "media", "inbound"));
  }

  /** The message with its images' lines, the image blocks for the model, and the files saved. */
  async forAgent(
    message: string,
    images: readonly ClientImage[],
    target: { agentId: string; sessionKey: string },
  ): Promise<{ message: string; images: ImageBlock[]; files: string[] }> {
    const config = this.deps.config();
    const limit = { maxMb: config.agents.defaults.mediaMaxMb ?? DEFAULT_MEDIA_MAX_MB, key: "agents.defaults.mediaMaxMb" };
    const saved = await this.store.saveAll(images.map(asInboundMedia), limit);
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
    return { message: [body, ...saved.lines].filter((line) => line !== "").join("\n"), images: saved.images, files: saved.files };
  }

  /** Removes saved files once nothing may read them (a stateless HTTP request's, after its turn). */
  discard(files: readonly string[]): void {
    for (const file of files) fs.rmSync(file, { force: true });
  }
}

function asInboundMedia(image: ClientImage): InboundMedia {
  return {
    kind: "image",
    mimeType: image.mimeType,
    sizeBytes: image.bytes.length,
    ...(image.fileName ? { fileName: image.fileName } : {}),
    download: async () => image.bytes,
  };
}
