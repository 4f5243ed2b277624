import { base64Payload } from "../../infra/base64.js";
import { formatByteSize } from "../../infra/byte-size.js";
import type { ClientImage } from "../client-images.js";
import { invalidRequest } from "../protocol/errors.js";

/** Image types `chat.send` takes as attachments. */
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/heic", "image/heif"]);
/** The largest image attachment, as OpenClaw caps them (under `agents.defaults.mediaMaxMb` when that is lower). */
const MAX_IMAGE_BYTES = 6 * 1024 * 1024;

/**
 * `chat.send`'s `attachments`, as OpenClaw's clients send them: `{type, mimeType, fileName?,
 * content: base64}`, or Anthropic's `{type, source: {type: "base64", media_type, data}}`. An item
 * without content is dropped, as OpenClaw drops it. Only images are taken: any other file is
 * refused by name, as is an image over the size limit or content that is not base64.
 */
export function readImageAttachments(attachments: readonly unknown[], mediaMaxMb: number): ClientImage[] {
  const maxBytes = Math.min(MAX_IMAGE_BYTES, Math.floor(mediaMaxMb * 1024 * 1024));
  const images: ClientImage[] = [];
  attachments.forEach((item, i) => {
    const at = `attachments[${i}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) throw invalidRequest(`${at} must be an object`);
    const { content, mimeType, fileName } = fieldsOf(item as Record<string, unknown>);
    if (content === undefined || content === "") return;
    const label = fileName ? `${at} ("${fileName}")` : at;
    if (!mimeType || !IMAGE_TYPES.has(mimeType)) {
      throw invalidRequest(`${label}: only image attachments are supported (JPEG, PNG, GIF, WebP, HEIC), not ${mimeType || "a file without a mimeType"}`);
    }
    const payload = base64Payload(content);
    if (!payload) throw invalidRequest(`${label}: content is not base64`);
    if (payload.size > maxBytes) {
      throw invalidRequest(`${label} is ${formatByteSize(payload.size)}, over the ${formatByteSize(maxBytes)} limit for images (agents.defaults.mediaMaxMb caps it lower)`);
    }
    images.push({ mimeType, bytes: Buffer.from(payload.text, "base64"), ...(fileName ? { fileName } : {}) });
  });
  return images;
}

function fieldsOf(item: Record<string, unknown>): { content?: string; mimeType?: string; fileName?: string } {
  const source = typeof item.source === "object" && item.source !== null ? (item.source as Record<string, unknown>) : undefined;
  const content = typeof item.content === "string" ? item.content : typeof source?.data === "string" ? source.data : undefined;
  const declared = typeof item.mimeType === "string" ? item.mimeType : typeof source?.media_type === "string" ? source.media_type : undefined;
  const fileName = typeof item.fileName === "string" && item.fileName.trim() ? item.fileName.trim() : undefined;
  return { ...(content !== undefined ? { content } : {}), ...(declared ? { mimeType: declared.trim().toLowerCase() } : {}), ...(fileName ? { fileName } : {}) };
}
