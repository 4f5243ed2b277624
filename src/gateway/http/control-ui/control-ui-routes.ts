import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
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
 * Serve the built Control UI at `basePath` with @fastify/static: one route per built file (so
 * the other routes on this port, /v1/* and channel webhooks, keep their own 404s), the gzip or
 * brotli file the build wrote when the browser accepts it, and the headers above. The page
 * itself is public; everything it shows comes over the WebSocket, which asks for the token.
 */
export async function registerControlUiRoutes(app: FastifyInstance, opts: { dir: string; basePath: string; logger: Logger }): Promise<void> {
  const { default: fastifyStatic } = await import("@fastify/static");
  await app.register(fastifyStatic, {
    root: opts.dir,
    prefix: opts.basePath,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    etag: true,
    lastModified: false,
    index: ["index.html"],
    // The compressed twins are sent in place of their originals, never under their own names.
    globIgnore: ["**/*.gz", "**/*.br"],
    setHeaders: (reply, filePath) => {
      const isAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header("Cache-Control", isAsset ? IMMUTABLE : "no-cache");
      reply.header("Content-Security-Policy", CONTROL_UI_CSP);
      reply.header("X-Content-Type-Options", "nosniff");
      reply.header("Referrer-Policy", "no-referrer");
      reply.header("X-Frame-Options", "DENY");
    },
  });
  // Relative asset URLs only resolve below the slash: /openclaw → /openclaw/.
  if (opts.basePath !== "/") {
    const bare = opts.basePath.slice(0, -1);
    app.get(bare, (req, reply) => reply.redirect(opts.basePath + (req.url.slice(bare.length).startsWith("?") ? req.url.slice(bare.length) : ""), 301));
  }
  opts.logger.debug({ basePath: opts.basePath, dir: opts.dir }, "control UI served");
}
