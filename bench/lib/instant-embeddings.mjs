// An embedding model that answers at once: feature hashing of words into a fixed number of
// dimensions. Served over HTTP as an OpenAI-compatible /v1/embeddings for a spawned gateway, and
// used in process (same vectors) where a bench must leave the query's embedding out of a timing.
import http from "node:http";
import { HOST } from "./spawn-gateway.mjs";

export const BENCH_EMBED_PROVIDER = "bench";
export const BENCH_EMBED_MODEL = "bench-embed";

export function hashEmbedding(text, dims) {
  const v = new Float32Array(dims);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
    v[(h >>> 0) % dims] += h & 1 ? 1 : -1;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dims; i++) v[i] /= norm;
  return v;
}

/** The in-process form, shaped like the memory module's Embedder. */
export function instantEmbedder(dims) {
  return {
    provider: BENCH_EMBED_PROVIDER,
    model: BENCH_EMBED_MODEL,
    key: `instant-${dims}`,
    async embed(texts) {
      return texts.map((t) => hashEmbedding(t, dims));
    },
  };
}

export function startInstantEmbeddings(dims) {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const parsed = JSON.parse(body || "{}");
      const inputs = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      const data = inputs.map((text, index) => ({ object: "embedding", index, embedding: Array.from(hashEmbedding(String(text), dims)) }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data, model: parsed.model }));
    });
  });
  return new Promise((resolve) => server.listen(0, HOST, () => resolve({ server, port: server.address().port })));
}
