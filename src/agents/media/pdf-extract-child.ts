// The PDF reader's own process (pdf-extract.ts starts one per PDF): the PDF arrives on stdin, its
// options as the first argument; one JSON line leaves on stdout. A PDF is untrusted input, so it is
// parsed here, with script evaluation off, where a crash or a runaway file cannot take the gateway down.
import { createCanvas } from "@napi-rs/canvas";
import type { PdfChildOptions, PdfChildReply } from "./pdf-extract.js";

/** At 96 dpi unless the page's share of the pixel budget needs less; never a side over 10,000 pixels. */
const DEFAULT_SCALE = 96 / 72;
const MAX_RENDER_SIDE = 10_000;

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? "{}") as PdfChildOptions;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  let reply: PdfChildReply;
  try {
    reply = { ok: true, ...(await extract(new Uint8Array(Buffer.concat(chunks)), options)) };
  } catch (err) {
    const name = (err as { name?: string }).name;
    reply = { ok: false, error: (err as Error).message ?? String(err), password: name === "PasswordException" };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}

/**
 * The text of the first `maxPages` pages; each of them with less than `minTextChars` characters of
 * text is also rendered to a PNG, the `maxPixels` budget shared among those pages.
 */
async function extract(data: Uint8Array, options: PdfChildOptions): Promise<{ text: string; images: string[] }> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const document = await pdfjs.getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pageCount = Math.min(document.numPages, options.maxPages);
    const texts: string[] = [];
    const sparse: number[] = [];
    for (let number = 1; number <= pageCount; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("");
      if (text.trim() !== "") texts.push(text.trim());
      if (text.trim().length < options.minTextChars) sparse.push(number);
    }
    const images: string[] = [];
    let pixelsLeft = options.maxPixels;
    for (const [index, number] of sparse.entries()) {
      if (pixelsLeft <= 0) break;
      const page = await document.getPage(number);
      const scale = renderScale(page.getViewport({ scale: 1 }), Math.ceil(pixelsLeft / (sparse.length - index)));
      if (scale === undefined) continue;
      const viewport = page.getViewport({ scale });
      const canvas = createCanvas(Math.max(1, Math.floor(viewport.width)), Math.max(1, Math.floor(viewport.height)));
      await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
      images.push(canvas.toBuffer("image/png").toString("base64"));
      pixelsLeft -= canvas.width * canvas.height;
    }
    return { text: texts.join("\n\n"), images };
  } finally {
    await document.destroy();
  }
}

/** The largest scale up to 96 dpi at which the page fits `pixels` and the side limit. */
function renderScale(page: { width: number; height: number }, pixels: number): number | undefined {
  if (!(page.width > 0 && page.height > 0)) return undefined;
  const fit = Math.sqrt(pixels / (page.width * page.height));
  const scale = Math.min(DEFAULT_SCALE, fit, MAX_RENDER_SIDE / Math.max(page.width, page.height));
  return scale > 0 ? scale : undefined;
}

await main();
