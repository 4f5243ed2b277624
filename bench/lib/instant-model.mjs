// An OpenAI-compatible chat completions endpoint that answers every request at once, streaming or
// not, so a bench measures the gateway and not a model. Shared by the benches that spawn a gateway.
import http from "node:http";
import { HOST } from "./spawn-gateway.mjs";

const completion = (content) => ({
  id: "x",
  object: "chat.completion",
  created: 0,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
});

// Only ever written by the gateway's own serializer, which puts no space after the colon.
const STREAM_TRUE = /"stream":true[,}]/;

const chunk = (choices) => `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices })}\n\n`;
const USAGE_CHUNK = `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } })}\n\n`;

/**
 * Listens on an ephemeral loopback port. `reply(request)` picks the assistant text from the parsed
 * request body, so a bench can make every answer name the message it answers. Without `reply` the
 * answer is "ok" and the body is not parsed (only searched for `"stream":true`): the bench shares
 * the machine's cores with the gateway, and parsing a long history's JSON is a model server's
 * work, not the gateway's.
 * Resolves with `{ server, port, count(), lastRequest(), capturedBody() }`; `count()` is the number
 * of requests answered, `lastRequest()` the latest one's `receivedAt` (its headers arrived) and
 * `answeredAt` (its answer was written), both `performance.now()` of this process: a bench that
 * runs the model in its own process splits a turn's time at the model call with them.
 * `capturedBody()` is the text of the first request body that contained `captureBodyWith`.
 */
export function startInstantModel({ reply, captureBodyWith } = {}) {
  let requests = 0;
  let last = { receivedAt: NaN, answeredAt: NaN };
  let captured;
  const server = http.createServer((req, res) => {
    const receivedAt = performance.now();
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests += 1;
      if (captured === undefined && captureBodyWith !== undefined && body.includes(captureBodyWith)) captured = body;
      const parsed = reply ? JSON.parse(body || "{}") : { stream: STREAM_TRUE.test(body) };
      const content = reply ? reply(parsed) : "ok";
      if (!parsed.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(completion(content)));
        last = { receivedAt, answeredAt: performance.now() };
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk([{ index: 0, delta: { role: "assistant", content }, finish_reason: null }]));
      res.write(chunk([{ index: 0, delta: {}, finish_reason: "stop" }]));
      res.write(USAGE_CHUNK);
      res.end("data: [DONE]\n\n");
      last = { receivedAt, answeredAt: performance.now() };
    });
  });
  return new Promise((resolve) =>
    server.listen(0, HOST, () => resolve({ server, port: server.address().port, count: () => requests, lastRequest: () => last, capturedBody: () => captured })),
  );
}
