import type { ReadFile } from "./file-prompt.js";
import { decodeFileText } from "./file-text.js";
import { extractPdf, type PdfLimits } from "./pdf-extract.js";

/**
 * A file a user sent, read for the model by its type: a PDF by the PDF reader (its text, and its
 * sparse pages as images), anything else as text in its charset. Throws FileReadError when the
 * file cannot be read.
 */
export async function readUserFile(
  bytes: Buffer,
  type: { mimeType: string; charset?: string },
  pdf: { limits: PdfLimits; timeoutMs: number; timeoutKey: string },
): Promise<Omit<ReadFile, "name" | "mimeType">> {
  if (type.mimeType !== "application/pdf") return { text: decodeFileText(bytes, type.charset) };
  const read = await extractPdf(bytes, pdf.limits, pdf.timeoutMs, pdf.timeoutKey);
  return { text: read.text, ...(read.images.length > 0 ? { images: read.images } : {}) };
}
