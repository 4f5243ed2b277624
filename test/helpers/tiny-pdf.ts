/**
 * A valid PDF of letter-size pages, each with one line of Helvetica text or, with `text`
 * undefined, only a filled rectangle (a page a scanner would make: no text to extract).
 */
export function tinyPdf(pages: { text?: string }[]): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  add(""); // 1: the catalog, written once the pages are known
  add(""); // 2: the page tree
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"); // 3
  const kids: number[] = [];
  for (const page of pages) {
    const ops = page.text !== undefined ? `BT /F1 12 Tf 72 720 Td (${page.text.replace(/[()\\]/g, "\\$&")}) Tj ET` : "0.2 0.4 0.8 rg 72 72 300 300 re f";
    const content = add(`<< /Length ${Buffer.byteLength(ops, "latin1")} >>\nstream\n${ops}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objects[0] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}
