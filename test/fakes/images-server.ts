import http from "node:http";
import { ONE_PIXEL_PNG } from "../helpers/tiny-png.js";
import { listenOnLoopback } from "./loopback-listener.js";
import { readMultipartParts } from "./multipart.js";

/** One request to `/v1/images/generations` or `/v1/images/edits` the fake answered: its fields, files and key. */
export interface ImagesRequest {
  endpoint: "generations" | "edits";
  authorization?: string;
  /** Other headers the request carried (the provider's configured `headers` arrive here). */
  headers: http.IncomingHttpHeaders;
  /** The JSON body, or the multipart form's text fields (numbers as sent: strings). */
  fields: Record<string, unknown>;
  /** The multipart form's files, in order. */
  files: { field: string; name: string; bytes: Buffer }[];
}

/** How the next answers are made: a status and an OpenAI error body, or no answer at all. */
export type ImagesFailure = { status: number; body: unknown } | "hang";

/**
 * OpenAI's Images API on loopback: every request is recorded; it answers `n` copies of a real
 * 1x1 PNG, as `b64_json` or (with `respondWith: "url"`) as a URL on this server it also serves
 * (`GET /files/<name>.png`). `failWith` makes the answers fail until it is cleared; `"hang"`
 * never answers (a connection it holds is dropped at `close`).
 */
export interface FakeImagesServer {
  readonly url: string;
  readonly requests: ImagesRequest[];
  image: Buffer;
  respondWith: "b64_json" | "url";
  revisedPrompt?: string;
  failWith?: ImagesFailure;
  /** Forgets the requests and the armed behaviour. */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeImagesServer(): Promise<FakeImagesServer> {
  const fake: Omit<FakeImagesServer, "url" | "close"> = {
    requests: [],
    image: ONE_PIXEL_PNG,
    respondWith: "b64_json",
    reset() {
      fake.requests.length = 0;
      fake.image = ONE_PIXEL_PNG;
      fake.respondWith = "b64_json";
      fake.revisedPrompt = undefined;
      fake.failWith = undefined;
    },
  };
  let baseUrl = "";
  const server = http.createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && req.url?.startsWith("/files/")) {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(fake.image);
      return;
    }
    const endpoint = req.method === "POST" && req.url === "/v1/images/generations" ? "generations" : req.method === "POST" && req.url === "/v1/images/edits" ? "edits" : undefined;
    if (!endpoint) return reply(404, { error: { message: "not found" } });
    const request: ImagesRequest = { endpoint, headers: req.headers, fields: {}, files: [], ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) };
    if (endpoint === "edits") {
      for (const part of await readMultipartParts(req)) {
        if (part.fileName !== undefined) request.files.push({ field: part.name, name: part.fileName, bytes: part.content });
        else request.fields[part.name] = part.content.toString("utf8");
      }
    } else {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      request.fields = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    }
    fake.requests.push(request);
    const failure = fake.failWith;
    if (failure === "hang") return;
    if (failure) return reply(failure.status, failure.body);
    const count = Number(request.fields.n ?? 1);
    const data = Array.from({ length: count }, (_, index) => ({
      ...(fake.respondWith === "url" ? { url: `${baseUrl}/files/image-${fake.requests.length}-${index}.png` } : { b64_json: fake.image.toString("base64") }),
      ...(fake.revisedPrompt ? { revised_prompt: fake.revisedPrompt } : {}),
    }));
    reply(200, { created: Math.floor(Date.now() / 1000), data });
  });
  const listening = await listenOnLoopback(server);
  baseUrl = listening.url;
  return Object.assign(fake, listening);
}
