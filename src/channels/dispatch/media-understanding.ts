import { audioBody, imageBody } from "../../agents/media/index.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import type { ImageBlock } from "../../models/messages.js";
import type { SessionStore } from "../../sessions/store/index.js";
import { DEFAULT_MEDIA_MAX_MB, type InboundMediaStore, type SavedMedia } from "../inbound/media-store.js";
import type { ChannelAccount, InboundMedia } from "../types.js";
import { withDocumentsRead } from "./document-reading.js";
import { imageDescription } from "./image-descriptions.js";
import { echoTranscript, voiceTranscript } from "./voice-transcripts.js";

/** What of a routed message the media work needs. */
export interface MediaMessage {
  media?: InboundMedia[];
  agentId: string;
  channel: string;
  accountId: string;
  account: ChannelAccount;
  accountConfig: Readonly<Record<string, unknown>>;
  chatId: string;
  threadId?: string;
  sessionKey: string;
  /** The message's own text for the agent (`bodyForAgent`). */
  body: string;
}

/**
 * A message's files for the agent: saved once, the first recording transcribed once (also when a
 * group's mention check asked for it first), else the first image described for a model that takes
 * none. Both kinds of work are kept per message (by its file list) so no file is fetched or sent
 * to a provider twice.
 */
export class MediaUnderstanding {
  private readonly saves = new WeakMap<readonly InboundMedia[], Promise<SavedMedia>>();
  private readonly transcripts = new WeakMap<readonly InboundMedia[], Promise<string | undefined>>();

  constructor(private readonly deps: { media?: InboundMediaStore; config: () => OpenClawConfig; store: Pick<SessionStore, "peek">; logger: Logger }) {}

  /**
   * The body the agent reads (OpenClaw's `[Audio]` or `[Image]` block when there is one), the file
   * lines followed by the text of the documents read, and the images (a PDF's rendered pages after
   * the message's own).
   */
  async forAgent(message: MediaMessage): Promise<{ body: string; lines: string[]; images: ImageBlock[] }> {
    const saved = await this.saved(message);
    if (!saved) return { body: message.body, lines: [], images: [] };
    const config = this.deps.config();
    const { lines, images } = await withDocumentsRead(saved, config, this.deps.logger, logFieldsOf(message));
    const transcript = await this.transcript(message);
    if (transcript) {
      await echoTranscript({ transcript, config, account: message.account, target: targetOf(message), logger: this.deps.logger, logFields: logFieldsOf(message) });
      return { body: audioBody(message.body, transcript), lines, images };
    }
    const sessionModel = this.deps.store.peek(message.sessionKey)?.modelOverride;
    const description = await imageDescription({
      images: saved.imageFiles,
      config,
      agentId: message.agentId,
      ...(sessionModel ? { sessionModel } : {}),
      logger: this.deps.logger,
      logFields: logFieldsOf(message),
    });
    return { body: description ? imageBody(message.body, description) : message.body, lines, images };
  }

  /** The transcript of the message's first recording (saving its files first), once per message. */
  transcript(message: MediaMessage): Promise<string | undefined> {
    const media = message.media;
    if (!media?.some((item) => item.kind === "audio")) return Promise.resolve(undefined);
    let pending = this.transcripts.get(media);
    if (!pending) {
      pending = this.saved(message).then((saved) =>
        saved ? voiceTranscript({ audio: saved.audio, config: this.deps.config(), logger: this.deps.logger, logFields: logFieldsOf(message) }) : undefined,
      );
      this.transcripts.set(media, pending);
    }
    return pending;
  }

  private saved(message: MediaMessage): Promise<SavedMedia | undefined> {
    const media = message.media;
    const store = this.deps.media;
    if (!media || !store) return Promise.resolve(undefined);
    let pending = this.saves.get(media);
    if (!pending) {
      // The channel's (or account's) own limit, else the agents' default.
      const own = message.accountConfig.mediaMaxMb as number | undefined;
      const limit =
        own !== undefined
          ? { maxMb: own, key: `channels.${message.channel}.mediaMaxMb` }
          : { maxMb: this.deps.config().agents.defaults.mediaMaxMb ?? DEFAULT_MEDIA_MAX_MB, key: "agents.defaults.mediaMaxMb" };
      pending = store.saveAll(media, limit);
      this.saves.set(media, pending);
    }
    return pending;
  }
}

function targetOf(message: MediaMessage) {
  return { chatId: message.chatId, ...(message.threadId ? { threadId: message.threadId } : {}) };
}

function logFieldsOf(message: MediaMessage): Record<string, unknown> {
  return { channel: message.channel, accountId: message.accountId, chatId: message.chatId };
}
