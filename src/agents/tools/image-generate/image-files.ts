import fs from "node:fs";
import path from "node:path";
import { toolError } from "../../tool-result.js";
import { TOOL_ERRORS } from "../../tool-errors.js";
import type { ToolResult } from "../../types.js";
import { fileSystemError } from "../fs-errors.js";
import { resolveWorkspacePath } from "../workspace-path.js";
import type { GeneratedImage } from "./openai-images.js";

/** Where generated images go, under the workspace. */
export const IMAGE_OUTPUT_DIR = "images";
/** A name past this is cut: the files are for people and the message tool, not for long prose. */
const MAX_NAME_CHARS = 64;
/** Names tried when the first is taken (`robot.png`, `robot-2.png`, …) before giving up. */
const MAX_NAME_TRIES = 1000;

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };

export interface SavedImage {
  /** Relative to the workspace, as the file tools and message's `file` take it. */
  path: string;
  mimeType: string;
  bytes: number;
}

/**
 * The file name stem for a call's images: the `filename` hint's last path component without its
 * extension, else the prompt's first words; either way only letters, digits, `.`, `_` and `-`
 * (a hint cannot name a directory or leave `images/`), at most 64 characters, `image` when
 * nothing is left.
 */
export function imageFileStem(filename: string | undefined, prompt: string): string {
  const source = filename ? path.basename(filename.replaceAll("\\", "/")).replace(/\.[a-z0-9]{1,5}$/i, "") : prompt.split(/\s+/).slice(0, 6).join("-");
  const cleaned = source
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, MAX_NAME_CHARS)
    .replace(/[-.]+$/, "");
  return cleaned || "image";
}

/**
 * Writes the images under `images/` in the workspace, confined as `write` is (a symlinked
 * `images/` that leads out is refused). One image is `<stem>.<ext>`, several `<stem>-1.<ext>`,
 * `<stem>-2.<ext>`, …; the extension comes from the bytes. A name already taken is never
 * overwritten: `-2`, `-3`, … is added (created exclusively, so a file that appears meanwhile is
 * not replaced either).
 */
export function saveImages(workspaceDir: string, images: readonly GeneratedImage[], stem: string): { saved: SavedImage[] } | { failure: ToolResult } {
  const dir = resolveWorkspacePath(workspaceDir, IMAGE_OUTPUT_DIR);
  if (!dir.ok) return { failure: dir.result };
  try {
    fs.mkdirSync(dir.absolute, { recursive: true });
  } catch (error) {
    return { failure: fileSystemError(error, IMAGE_OUTPUT_DIR) };
  }
  const saved: SavedImage[] = [];
  for (const [index, image] of images.entries()) {
    const base = images.length === 1 ? stem : `${stem}-${index + 1}`;
    const written = writeExclusive(workspaceDir, base, EXTENSIONS[image.mimeType] ?? "img", image.bytes);
    if ("failure" in written) return written;
    saved.push({ path: written.relative, mimeType: image.mimeType, bytes: image.bytes.length });
  }
  return { saved };
}

function writeExclusive(workspaceDir: string, base: string, extension: string, bytes: Buffer): { relative: string } | { failure: ToolResult } {
  for (let attempt = 1; attempt <= MAX_NAME_TRIES; attempt++) {
    const name = `${IMAGE_OUTPUT_DIR}/${attempt === 1 ? base : `${base}-${attempt}`}.${extension}`;
    // Resolved after images/ exists, so its real path (and where a link there leads) is what is checked.
    const target = resolveWorkspacePath(workspaceDir, name);
    if (!target.ok) return { failure: target.result };
    try {
      // `wx`: never replaces a file, nor follows a link left at the name.
      fs.writeFileSync(target.absolute, bytes, { flag: "wx" });
      return { relative: target.relative };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      return { failure: fileSystemError(error, name) };
    }
  }
  return { failure: toolError(TOOL_ERRORS.imageNamesTaken(`${IMAGE_OUTPUT_DIR}/${base}.${extension}`)) };
}
