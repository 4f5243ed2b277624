/** Windows-1252's characters for bytes 0x80–0x9F (the rest are Latin-1's); undefined bytes keep their C1 code point. */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
  0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/**
 * Bytes as Windows-1252, which the WHATWG Encoding standard also reads for the labels latin1 and
 * iso-8859-1 (every byte decodes). Node 20's TextDecoder reads that encoding as ISO-8859-1, which
 * gets 0x80–0x9F wrong (€, curly quotes, dashes), so it is done by table here.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  let text = "";
  for (let start = 0; start < bytes.length; start += 8192) {
    const chunk = Array.from(bytes.subarray(start, start + 8192), (byte) => (byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80]! : byte));
    text += String.fromCharCode(...chunk);
  }
  return text;
}
