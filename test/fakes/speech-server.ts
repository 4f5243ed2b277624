import http from "node:http";
import { listenOnLoopback } from "./loopback-listener.js";

/** Audio the fake answers with: an Ogg page header and an OpusHead, enough for any check on the bytes (no player needs to play it). */
export const FAKE_OGG_OPUS = Buffer.concat([
  Buffer.from("OggS", "ascii"),
  Buffer.from([0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0x2a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 19]),
  Buffer.from("OpusHead", "ascii"),
  Buffer.from([1, 1, 0x38, 1, 0x80, 0xbb, 0, 0, 0, 0, 0]),
]);
/** What the fake answers for any other format: an MPEG frame header and padding. */
export const FAKE_MP3 = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(60)]);

/** One `POST /v1/audio/speech` the fake took: the JSON body and the key it came with. */
export interface SpeechRequest {
  authorization?: string;
  body: Record<string, unknown>;
}

/**
 * OpenAI's speech endpoint (`POST /v1/audio/speech`, JSON): it answers `FAKE_OGG_OPUS` for
 * `response_format: "opus"` and `FAKE_MP3` otherwise, with the matching content type. `failWith`
 * answers that status (a JSON error whose message holds the request's key, so a leak would
 * show); `hang` holds every answer until the client gives up. Every request is recorded.
 */
export interface FakeSpeechServer {
  readonly url: string;
  readonly requests: SpeechRequest[];
  failWith?: number;
  hang?: boolean;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeSpeechServer(): Promise<FakeSpeechServer> {
  const fake: Omit<FakeSpeechServer, "url" | "close"> = {
    requests: [],
    reset() {
      fake.requests.length = 0;
      fake.failWith = undefined;
      fake.hang = undefined;
    },
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== "POST" || req.url !== "/v1/audio/speech") {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: "not found" } }));
    }
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    fake.requests.push({ ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), body });
    if (fake.hang) return; // answered never: the client's timeout ends it (close() drops the socket)
    if (fake.failWith) {
      res.writeHead(fake.failWith, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: `upstream failure for key ${req.headers.authorization ?? "(none)"}` } }));
    }
    const opus = body.response_format === "opus";
    res.writeHead(200, { "content-type": opus ? "audio/ogg" : "audio/mpeg" });
    res.end(opus ? FAKE_OGG_OPUS : FAKE_MP3);
  });
  return Object.assign(fake, await listenOnLoopback(server));
}
