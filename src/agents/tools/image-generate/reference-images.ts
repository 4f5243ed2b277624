import fs from "node:fs";
import path from "node:path";
import { toolError } from "../../tool-result.js";
import { TOOL_ERRORS } from "../../tool-errors.js";
import type { ToolResult } from "../../types.js";
import { fileSystemError, readRegularFile } from "../fs-errors.js";
import { formatBytes, sniffImageMimeType } from "../read.js";
import { resolveWorkspacePath } from "../workspace-path.js";

/** One reference image may be this large (OpenAI's edits take up to 50 MB; five of these are plenty). */
export const REFERENCE_IMAGE_MAX_BYTES = 20 * 1024 * 1024;

/** What OpenAI's edits endpoint takes. */
const EDITABLE_TYPES = new Set(["image/png", "image/jpeg", "image/webp"]);

export interface ReferenceImage {
  name: string;
  mimeType: string;
  bytes: Buffer;
}

/**
 * Reads an edit's reference images from the workspace, confined as `read` is (no path out, no
 * symlink out, no hard-linked file): each a PNG, JPEG or WebP by its bytes, at most 20 MB. A URL
 * is refused: the images an edit sends are the workspace's own files.
 */
export function loadReferenceImages(workspaceDir: string, paths: readonly string[]): { images: ReferenceImage[] } | { failure: ToolResult } {
  const images: ReferenceImage[] = [];
  for (const requested of paths) {
    if (/^(?:data:|[a-z][a-z0-9+.-]*:\/\/)/i.test(requested)) return { failure: toolError(TOOL_ERRORS.imageReferenceUrl(requested.slice(0, 200))) };
    const resolved = resolveWorkspacePath(workspaceDir, requested);
    if (!resolved.ok) return { failure: resolved.result };
    let bytes: Buffer;
    try {
      const size = fs.statSync(resolved.absolute).size;
      if (size > REFERENCE_IMAGE_MAX_BYTES) {
        return { failure: toolError(TOOL_ERRORS.imageReferenceTooLarge(resolved.relative, formatBytes(size), formatBytes(REFERENCE_IMAGE_MAX_BYTES))) };
      }
      bytes = readRegularFile(resolved.absolute);
    } catch (error) {
      return { failure: fileSystemError(error, resolved.relative) };
    }
    const mimeType = sniffImageMimeType(bytes);
    if (!mimeType || !EDITABLE_TYPES.has(mimeType)) return { failure: toolError(TOOL_ERRORS.imageReferenceNotAnImage(resolved.relative)) };
    images.push({ name: path.basename(resolved.absolute), mimeType, bytes });
  }
  return { images };
}
