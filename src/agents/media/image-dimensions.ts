/** An image's size in pixels as its file header states it (before any EXIF rotation). */
export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The width and height a PNG, JPEG, GIF or WebP file declares, read from its header without
 * decoding it; undefined for any other or a truncated file. Cheap and safe on untrusted bytes:
 * it only reads fixed offsets and JPEG segment lengths, each bounds-checked.
 */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  if (isPng(bytes)) return sized(readUint32BE(bytes, 16), readUint32BE(bytes, 20));
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return sized(readUint16LE(bytes, 6), readUint16LE(bytes, 8));
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return webpSize(bytes);
  return undefined;
}

function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 24 && bytes[0] === 0x89 && ascii(bytes, 1, 3) === "PNG" && ascii(bytes, 12, 4) === "IHDR";
}

/** The first start-of-frame segment's size (SOF0–SOF15 but DHT, JPG and DAC, which share the range). */
function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return sized(readUint16BE(bytes, at + 7), readUint16BE(bytes, at + 5));
    // Markers without a length (restart markers, TEM) stand alone.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    at += 2 + readUint16BE(bytes, at + 2);
  }
  return undefined;
}

function webpSize(bytes: Uint8Array): ImageSize | undefined {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8 " && bytes.length >= 30) return sized(readUint16LE(bytes, 26) & 0x3fff, readUint16LE(bytes, 28) & 0x3fff);
  if (chunk === "VP8L" && bytes.length >= 25) {
    const b1 = bytes[22]!;
    const b2 = bytes[23]!;
    const b3 = bytes[24]!;
    return sized(1 + (bytes[21]! | ((b1 & 0x3f) << 8)), 1 + ((b1 >> 6) | (b2 << 2) | ((b3 & 0x0f) << 10)));
  }
  if (chunk === "VP8X" && bytes.length >= 30) return sized(1 + readUint24LE(bytes, 24), 1 + readUint24LE(bytes, 27));
  return undefined;
}

function sized(width: number, height: number): ImageSize | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (at + length > bytes.length) return "";
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function readUint16BE(bytes: Uint8Array, at: number): number {
  return at + 2 <= bytes.length ? (bytes[at]! << 8) | bytes[at + 1]! : 0;
}

function readUint16LE(bytes: Uint8Array, at: number): number {
  return at + 2 <= bytes.length ? bytes[at]! | (bytes[at + 1]! << 8) : 0;
}

function readUint24LE(bytes: Uint8Array, at: number): number {
  return at + 3 <= bytes.length ? bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) : 0;
}

function readUint32BE(bytes: Uint8Array, at: number): number {
  return at + 4 <= bytes.length ? ((bytes[at]! << 24) >>> 0) + ((bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) : 0;
}
