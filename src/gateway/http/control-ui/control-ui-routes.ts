import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "../../../infra/logger.js";

/**
 * The page may load scripts, styles and images from this gateway only, and talk to it over
 * fetch/WebSocket; no inline script or style, no plug-ins, no framing by other sites.
 */
export const CONTROL_UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Built file names under assets/ carry a content hash: they never change, so browsers keep them for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** One built file; its bytes (with the compressed twins the build wrote beside it) once first asked for. */
interface BuiltFile {
  rel: string;
  full: string;
  contentType: string;
  immutable: boolean;
  loaded?: LoadedFile;
}

interface LoadedFile {
  etag: string;
  bodies: { identity: Buffer; br?: Buffer; gzip?: Buffer };
}

/**
 * Where `npm run build` put the UI: `dist/control-ui/` beside the bundled CLI (dist/bin/) or
 * beside the compiled sources (dist/src/…). Undefined when the UI was not built.
 */
export function findControlUiDir(from = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (let i = 0; i < 8; i++) {
    if (path.basename(dir) === "dist" && fs.existsSync(path.join(dir, "control-ui", "index.html"))) return path.join(dir, "control-ui");
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

/**
 * Serve the built Control UI at `basePath`: one route per built file (so the other routes on this
 * port, /v1/* and channel webhooks, keep their own 404s), the brotli or gzip twin the build wrote
 * when the browser accepts it, an ETag per file, and the headers above. Each file (a few hundred
 * KiB for all of them with their twins) is read when first asked for and then sent from memory,
 * so a gateway whose UI nobody opens holds none of it: a file sender's streams
 * (@fastify/static, @fastify/send) cost the gateway 5-7 MiB of RSS for the same few files (see
 * docs/control-ui.md). The page is public; what it shows comes over the WebSocket, which asks for the token.
 */
export function registerControlUiRoutes(app: FastifyInstance, opts: { dir: string; basePath: string; logger: Logger }): void {
  const files = builtFiles(opts.dir);
  for (const file of files) app.get(opts.basePath + file.rel, (request, reply) => serve(file, request, reply));
  const index = files.find((f) => f.rel === "index.html");
  if (index) app.get(opts.basePath, (request, reply) => serve(index, request, reply));
  // Relative asset URLs only resolve below the slash: /openclaw → /openclaw/.
  if (opts.basePath !== "/") {
    const bare = opts.basePath.slice(0, -1);
    app.get(bare, (request, reply) => reply.redirect(opts.basePath + (request.url.slice(bare.length).startsWith("?") ? request.url.slice(bare.length) : ""), 301));
  }
  opts.logger.debug({ basePath: opts.basePath, dir: opts.dir, files: files.length }, "control UI served");
}

function serve(built: BuiltFile, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let file: LoadedFile;
  try {
    file = built.loaded ??= loadFile(built.full);
  } catch (err) {
    // An upgrade or rebuild replaced the built files under the running gateway.
    return reply
      .code(503)
      .type("text/plain; charset=utf-8")
      .send(
        `The Control UI file ${built.rel} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): its files changed since the gateway started; restart the gateway (openclaw gateway restart).`,
      );
  }
  const encoding = pickEncoding(request.headers["accept-encoding"], file);
  reply.header("Vary", "Accept-Encoding");
  reply.header("Cache-Control", built.immutable ? IMMUTABLE : "no-cache");
  reply.header("Content-Security-Policy", CONTROL_UI_CSP);
  reply.header("X-Frame-Options", "DENY");
  reply.header("ETag", file.etag);
  const ifNoneMatch = request.headers["if-none-match"];
  if (ifNoneMatch?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === file.etag)) return reply.code(304).send();
  reply.header("Content-Type", built.contentType);
  if (encoding !== "identity") reply.header("Content-Encoding", encoding);
  return reply.send(file.bodies[encoding]);
}

/** Brotli when the browser takes it and the build wrote it, else gzip, else the plain file. */
function pickEncoding(acceptEncoding: string | undefined, file: LoadedFile): "br" | "gzip" | "identity" {
  const accepted = new Set((acceptEncoding ?? "").split(",").map((part) => part.split(";")[0]!.trim().toLowerCase()));
  if (file.bodies.br && accepted.has("br")) return "br";
  if (file.bodies.gzip && (accepted.has("gzip") || accepted.has("*"))) return "gzip";
  return "identity";
}

/** The build's files, listed at start; their .gz/.br twins are sent in their place, never by name. */
function builtFiles(dir: string, prefix = ""): BuiltFile[] {
  const files: BuiltFile[] = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...builtFiles(dir, rel));
    else if (!/\.(gz|br)$/.test(entry.name)) {
      files.push({
        rel,
        full: path.join(dir, rel),
        contentType: CONTENT_TYPES[path.extname(entry.name).toLowerCase()] ?? "application/octet-stream",
        immutable: rel.startsWith("assets/"),
      });
    }
  }
  return files;
}

/** A built file's bytes and twins; the build writes them once, so they are read once. */
function loadFile(full: string): LoadedFile {
  const identity = fs.readFileSync(full);
  const twin = (suffix: string) => (fs.existsSync(full + suffix) ? fs.readFileSync(full + suffix) : undefined);
  return {
    etag: `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`,
    bodies: { identity, br: twin(".br"), gzip: twin(".gz") },
  };
}
