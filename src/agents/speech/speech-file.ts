import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Where speech made outside an agent's turn (`tts.convert`, `/tts audio`) is kept, under the state dir. */
export function speechMediaDir(stateDir: string): string {
  return path.join(stateDir, "media", "tts");
}

/**
 * A new file name for speech: `tts-<UTC time>-<random>.<ext>`, so files sort by when they were
 * made and two at once never share a name.
 */
export function speechFileName(extension: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `tts-${stamp}-${randomBytes(3).toString("hex")}.${extension}`;
}

/**
 * Writes the audio into `dir` (made if missing, 0700) under a new name, never over an existing
 * file, readable by this user only (0600), as inbound media is kept; returns its absolute path.
 */
export function writeSpeechFile(dir: string, bytes: Buffer, extension: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, speechFileName(extension));
  // `wx`: never replaces a file, nor follows a link left at the name.
  fs.writeFileSync(file, bytes, { flag: "wx", mode: 0o600 });
  return file;
}
