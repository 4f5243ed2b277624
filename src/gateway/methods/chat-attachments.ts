import type { ConversationPort } from "../../agents/conversation-port.js";
import { DEFAULT_MEDIA_MAX_MB } from "../../channels/inbound/media-store.js";
import type { OpenClawConfig } from "../../config/index.js";
import { base64Payload } from "../../infra/base64.js";
import { formatByteSize } from "../../infra/byte-size.js";
import type { ImageBlock } from "../../models/messages.js";
import { parseSessionKey } from "../../sessions/keys/index.js";
import { CLIENT_IMAGE_TYPES, type ClientFile, type ClientMedia } from "../client-media.js";
import { invalidRequest } from "../protocol/errors.js";
/** The largest image attachment, as OpenClaw caps them (under `agents.defaults.mediaMaxMb` when that is lower). */
const MAX_IMAGE_BYTES = 6 * 1024 * 1024;

/**
 * `chat.send`'s and `agent`'s `attachments`, as OpenClaw's clients send them: `{type, mimeType,
 * fileName?, content: base64}`, or Anthropic's `{type, source: {type: "base64", media_type,
 * data}}`. An item without content is dropped, as OpenClaw drops it. Images (JPEG, PNG, GIF,
 * WebP, HEIC) may be 6 MB, other files `agents.defaults.mediaMaxMb`; content that is not base64
 * or a file over its limit is refused by name.
 */
export function readAttachments(attachments: readonly unknown[] | undefined, config: OpenClawConfig): ClientFile[] {
  if (!attachments?.length) return [];
  const mediaMaxBytes = Math.floor((config.agents.defaults.mediaMaxMb ?? DEFAULT_MEDIA_MAX_MB) * 1024 * 1024);
  const files: ClientFile[] = [];
  attachments.forEach((item, i) => {
    const at = `attachments[${i}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) throw invalidRequest(`${at} must be an object`);
    const { content, mimeType, fileName, declaredImage } = fieldsOf(item as Record<string, unknown>);
    if (content === undefined || content === "") return;
    const label = fileName ? `${at} ("${fileName}")` : at;
    const image = mimeType !== undefined && CLIENT_IMAGE_TYPES.includes(mimeType);
    if (declaredImage && !image) throw invalidRequest(`${label}: an image must be JPEG, PNG, GIF, WebP or HEIC, not ${mimeType ?? "a file without a mimeType"}`);
    const payload = base64Payload(content);
    if (!payload) throw invalidRequest(`${label}: content is not base64`);
    const limit = image ? Math.min(MAX_IMAGE_BYTES, mediaMaxBytes) : mediaMaxBytes;
    if (payload.size > limit) {
      throw invalidRequest(`${label} is ${formatByteSize(payload.size)}, over the ${formatByteSize(limit)} limit for ${image ? "images" : "files"} (agents.defaults.mediaMaxMb)`);
    }
    files.push({
      kind: image ? "image" : "document",
      ...(mimeType ? { mimeType } : {}),
      bytes: Buffer.from(payload.text, "base64"),
      ...(fileName ? { fileName } : {}),
    });
  });
  return files;
}

/**
 * The message with its attachments saved and named, and their image blocks for the model. A retry
 * of a key already accepted saves nothing again: submit answers it from the ledger.
 */
export async function withAttachments(
  media: ClientMedia,
  conversations: ConversationPort,
  message: { text: string; idempotencyKey: string; sessionKey: string },
  files: readonly ClientFile[],
): Promise<{ text: string; images: ImageBlock[] }> {
  if (files.length === 0 || conversations.hasAccepted(message.idempotencyKey)) return { text: message.text, images: [] };
  const saved = await media.forAgent(message.text, files, { agentId: parseSessionKey(message.sessionKey).agentId, sessionKey: message.sessionKey });
  return { text: saved.message, images: saved.images };
}

function fieldsOf(item: Record<string, unknown>): { content?: string; mimeType?: string; fileName?: string; declaredImage: boolean } {
  const source = typeof item.source === "object" && item.source !== null ? (item.source as Record<string, unknown>) : undefined;
  const content = typeof item.content === "string" ? item.content : typeof source?.data === "string" ? source.data : undefined;
  const declared = typeof item.mimeType === "string" ? item.mimeType : typeof source?.media_type === "string" ? source.media_type : undefined;
  const fileName = typeof item.fileName === "string" && item.fileName.trim() ? item.fileName.trim() : undefined;
  return {
    ...(content !== undefined ? { content } : {}),
    ...(declared?.trim() ? { mimeType: declared.trim().toLowerCase() } : {}),
    ...(fileName ? { fileName } : {}),
    declaredImage: item.type === "image",
  };
}
