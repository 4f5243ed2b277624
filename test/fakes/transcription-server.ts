import http from "node:http";
import { listenOnLoopback } from "./loopback-listener.js";
import { parseMultipart, UploadedFile } from "./multipart.js";

/** One `POST /v1/audio/transcriptions` the fake answered: the form's fields, the file, the key. */
export interface TranscriptionRequest {
  authorization?: string;
  model?: string;
  language?: string;
  prompt?: string;
  responseFormat?: string;
  fileName?: string;
  bytes?: Buffer;
}

/**
 * OpenAI's transcription endpoint (`POST /v1/audio/transcriptions`, multipart): it answers
 * `{text}` with `transcript(request)`, or the status `failWith` names; every request is recorded.
 */
export interface FakeTranscriptionServer {
  readonly url: string;
  readonly requests: TranscriptionRequest[];
  transcript: (request: TranscriptionRequest) => string;
  failWith?: number;
  close(): Promise<void>;
}

export async function startFakeTranscriptionServer(): Promise<FakeTranscriptionServer> {
  const fake: Omit<FakeTranscriptionServer, "url" | "close"> = { requests: [], transcript: () => "fake transcript" };
  const server = http.createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/v1/audio/transcriptions") return reply(404, { error: { message: "not found" } });
    const form = await parseMultipart(req);
    const file = form.file instanceof UploadedFile ? form.file : undefined;
    const field = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : undefined);
    const request: TranscriptionRequest = {
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      model: field("model"),
      language: field("language"),
      prompt: field("prompt"),
      responseFormat: field("response_format"),
      fileName: file?.name,
      bytes: file?.bytes,
    };
    fake.requests.push(request);
    if (fake.failWith) return reply(fake.failWith, { error: { message: "upstream failure body" } });
    return reply(200, { text: fake.transcript(request) });
  });
  return Object.assign(fake, await listenOnLoopback(server));
}
