import type { IncomingMessage } from "node:http";
import { parseMultipart, UploadedFile } from "./multipart.js";

/** A file the app shared through the upload flow, as the test reads it back. */
export interface FakeSlackUpload {
  /** The `file_id` handed out by `files.getUploadURLExternal`. */
  fileId: string;
  channel: string;
  fileName: string;
  bytes: Buffer;
  initial_comment?: string;
  thread_ts?: string;
  /** The ts of the message that shares the file. */
  ts: string;
}

interface PendingUpload {
  fileName: string;
  length: number;
  bytes?: Buffer;
}

/**
 * Slack's external upload flow on the fake: `files.getUploadURLExternal` hands out an upload URL
 * on the fake itself, the bytes arrive there (raw, or as the single file of a multipart form, as
 * @slack/web-api sends them), and `files.completeUploadExternal` shares the uploaded files in a
 * channel or thread. A completion for a file whose bytes never arrived, or arrived with another
 * length than announced, fails like Slack does.
 */
export class FakeSlackFileUploads {
  /** The path prefix upload URLs use; requests under it go to `receive`. */
  static readonly uploadPath = "/upload/v1/";

  readonly uploads: FakeSlackUpload[] = [];
  private readonly pending = new Map<string, PendingUpload>();
  private counter = 0;

  constructor(
    private readonly baseUrl: () => string,
    private readonly nextTs: () => string,
  ) {}

  getUploadUrl(body: Record<string, unknown>): Record<string, unknown> {
    const length = Number(body.length);
    if (typeof body.filename !== "string" || !body.filename) return { ok: false, error: "invalid_arguments" };
    if (!Number.isInteger(length) || length < 1) return { ok: false, error: "invalid_arguments" };
    const fileId = `F0UP${String(++this.counter).padStart(6, "0")}`;
    this.pending.set(fileId, { fileName: body.filename, length });
    return { ok: true, upload_url: `${this.baseUrl()}${FakeSlackFileUploads.uploadPath}${fileId}`, file_id: fileId };
  }

  /** The bytes POSTed to an upload URL: Slack answers a bare `OK - <length>`. */
  async receive(req: IncomingMessage, fileId: string): Promise<{ status: number; text: string }> {
    const pending = this.pending.get(fileId);
    if (!pending) return { status: 404, text: "upload url not found" };
    let bytes: Buffer;
    if (String(req.headers["content-type"]).startsWith("multipart/form-data")) {
      const files = Object.values(await parseMultipart(req)).filter((value) => value instanceof UploadedFile);
      if (files.length !== 1) return { status: 400, text: `expected one file in the form, got ${files.length}` };
      bytes = files[0]!.bytes;
    } else {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      bytes = Buffer.concat(chunks);
    }
    pending.bytes = bytes;
    return { status: 200, text: `OK - ${bytes.length}` };
  }

  complete(body: Record<string, unknown>): Record<string, unknown> {
    const files = parseFiles(body.files);
    const channel = typeof body.channel_id === "string" ? body.channel_id : undefined;
    if (!files) return { ok: false, error: "invalid_arguments" };
    const uploaded = files.map((file) => ({ ...file, pending: this.pending.get(file.id) }));
    if (uploaded.some((file) => !file.pending?.bytes || file.pending.bytes.length !== file.pending.length)) return { ok: false, error: "file_not_found" };
    const ts = this.nextTs();
    const threadTs = typeof body.thread_ts === "string" ? body.thread_ts : undefined;
    const comment = typeof body.initial_comment === "string" ? body.initial_comment : undefined;
    const answered = uploaded.map(({ id, title, pending }) => {
      this.pending.delete(id);
      if (channel) {
        this.uploads.push({
          fileId: id,
          channel,
          fileName: pending!.fileName,
          bytes: pending!.bytes!,
          ...(comment !== undefined ? { initial_comment: comment } : {}),
          ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
          ts,
        });
      }
      const share = { ts, ...(threadTs ? { thread_ts: threadTs } : {}) };
      const shares = channel ? { [channel.startsWith("C") ? "public" : "private"]: { [channel]: [share] } } : {};
      return { id, name: pending!.fileName, title: title ?? pending!.fileName, size: pending!.length, shares };
    });
    return { ok: true, files: answered };
  }
}

/** `files` arrives as a JSON string in a form body (the SDK encodes objects so) or as an array in JSON. */
function parseFiles(raw: unknown): Array<{ id: string; title?: string }> | undefined {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const files: Array<{ id: string; title?: string }> = [];
  for (const entry of value) {
    if (!entry || typeof entry !== "object" || typeof (entry as { id?: unknown }).id !== "string") return undefined;
    const { id, title } = entry as { id: string; title?: unknown };
    files.push({ id, ...(typeof title === "string" ? { title } : {}) });
  }
  return files;
}
