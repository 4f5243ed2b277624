import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { IMAGE_INPUT_MAX_BYTES, InboundMediaStore } from "../../../../src/channels/inbound/media-store.js";
import type { InboundMedia } from "../../../../src/channels/types.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "media-store-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const media = (kind: InboundMedia["kind"], mimeType: string | undefined, bytes: Buffer): InboundMedia => ({
  kind,
  ...(mimeType ? { mimeType } : {}),
  download: async () => bytes,
});

const LIMIT = { maxMb: 20, key: "agents.defaults.mediaMaxMb" };

describe("InboundMediaStore: which saved files become image input", () => {
  it("returns saved JPEG/PNG/GIF/WebP images as base64 image blocks, one line per file either way", async () => {
    const png = Buffer.from("png bytes");
    const saved = await new InboundMediaStore(dir).saveAll(
      [media("image", "image/png", png), media("document", "application/pdf", Buffer.from("%PDF")), media("audio", "audio/ogg", Buffer.from("OggS"))],
      LIMIT,
    );
    expect(saved.lines).toHaveLength(3);
    expect(saved.lines.every((line) => line.startsWith("[media attached: "))).toBe(true);
    expect(saved.images).toEqual([{ type: "image", data: png.toString("base64"), mimeType: "image/png" }]);
  });

  it("keeps an image of a type the model APIs do not take, or one over 5 MB, as a path line only", async () => {
    const big = Buffer.alloc(IMAGE_INPUT_MAX_BYTES + 1, 1);
    const saved = await new InboundMediaStore(dir).saveAll(
      [media("image", "image/heic", Buffer.from("heic")), media("image", "image/jpeg", big), media("image", undefined, Buffer.from("?"))],
      LIMIT,
    );
    expect(saved.lines).toHaveLength(3);
    expect(saved.lines.every((line) => line.startsWith("[media attached: "))).toBe(true);
    expect(saved.images).toEqual([]);
  });

  it("gives no image for a file that was not saved", async () => {
    const saved = await new InboundMediaStore(dir).saveAll([media("image", "image/png", Buffer.alloc(2048))], { maxMb: 0.001, key: "channels.telegram.mediaMaxMb" });
    expect(saved.lines[0]).toBe("[media not saved: image is 2.0 KB, over channels.telegram.mediaMaxMb (0.001 MB)]");
    expect(saved.images).toEqual([]);
  });
});
