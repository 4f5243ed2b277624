import type { IncomingMessage } from "node:http";

/** A file part of a multipart upload. */
export class UploadedFile {
  constructor(
    readonly name: string,
    readonly bytes: Buffer,
  ) {}
}

/** One part of a multipart/form-data body: its field name, the file name a file part carries, and its bytes. */
export interface MultipartPart {
  name: string;
  fileName?: string;
  content: Buffer;
}

/** Every part of a multipart/form-data body, in order (a field sent several times, as `image[]`, is several parts). */
export async function readMultipartParts(req: IncomingMessage): Promise<MultipartPart[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const boundary = /boundary="?([^";]+)"?/i.exec(String(req.headers["content-type"]))?.[1];
  if (!boundary) throw new Error("multipart body without a boundary");
  const parts: MultipartPart[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let start = raw.indexOf(delimiter);
  while (start >= 0) {
    const next = raw.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    // Each part: CRLF, headers, CRLF CRLF, content, CRLF, then the next delimiter.
    const part = raw.subarray(start + delimiter.length + 2, next - 2);
    const headerEnd = part.indexOf("\r\n\r\n");
    const headers = part.subarray(0, headerEnd).toString("utf8");
    const content = Buffer.from(part.subarray(headerEnd + 4));
    // grammY writes `name="x"` quoted and `filename=x` bare; browsers quote both.
    const name = /[;:]\s*name="?([^";\r\n]*)"?/i.exec(headers)?.[1];
    const fileName = /filename="?([^";\r\n]*)"?/i.exec(headers)?.[1];
    if (name !== undefined) parts.push({ name, ...(fileName !== undefined ? { fileName } : {}), content });
    start = next;
  }
  return parts;
}

/** A multipart/form-data body (grammY, discord.js uploads): fields as strings (JSON where they look like it), files as `UploadedFile`. */
export async function parseMultipart(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const { name, fileName, content } of await readMultipartParts(req)) {
    if (fileName !== undefined) body[name] = new UploadedFile(fileName, content);
    else {
      const value = content.toString("utf8");
      body[name] = /^[[{]/.test(value) ? JSON.parse(value) : value;
    }
  }
  // grammY names a file field `photo` with the value `attach://<id>` and sends the bytes as part <id>.
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === "string" && value.startsWith("attach://")) body[key] = body[value.slice("attach://".length)];
  }
  return body;
}
