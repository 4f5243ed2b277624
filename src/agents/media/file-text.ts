import { decodeWindows1252 } from "../../infra/windows-1252.js";
import { FileReadError } from "./file-read-error.js";

/**
 * A file's bytes as text. A declared charset is used as declared (a label TextDecoder knows,
 * refused when the bytes are not valid in it); otherwise a byte-order mark, then UTF-16 recognized
 * by its zero bytes, then UTF-8 when the bytes are valid UTF-8, else Windows-1252 (which any bytes
 * decode in): a text file saved by an older Windows editor reads as it was written.
 */
export function decodeFileText(bytes: Uint8Array, charset: string | undefined): string {
  if (charset !== undefined) return decodeDeclared(bytes, charset);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  const utf16 = unmarkedUtf16(bytes);
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

function decodeDeclared(bytes: Uint8Array, charset: string): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw new FileReadError(`the file's charset '${charset}' is not one this gateway decodes`);
  }
  // Node 20's TextDecoder reads windows-1252 (and its aliases latin1, iso-8859-1) as ISO-8859-1.
  if (decoder.encoding === "windows-1252") return decodeWindows1252(bytes);
  try {
    return decoder.decode(bytes);
  } catch {
    throw new FileReadError(`the file is not valid ${charset} text`);
  }
}

/**
 * UTF-16 without a byte-order mark: text of mostly Latin letters has a zero in every other byte,
 * at odd offsets in little-endian and even ones in big-endian. Judged on the first 4 KB.
 */
function unmarkedUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  const length = Math.min(bytes.length, 4096) & ~1;
  if (length < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) evenZeros += 1;
    if (bytes[i + 1] === 0) oddZeros += 1;
  }
  const pairs = length / 2;
  if (oddZeros >= pairs * 0.4 && evenZeros <= pairs * 0.05) return "utf-16le";
  if (evenZeros >= pairs * 0.4 && oddZeros <= pairs * 0.05) return "utf-16be";
  return undefined;
}
