import { eagerModuleFactories } from "./build/eager-module-factories.mjs";
import { fastifyOnDemand } from "./build/fastify-on-demand.mjs";
import { lazyAcpSchemas } from "./build/lazy-acp-schemas.mjs";

// One bundled CLI: the gateway starts about twice as fast and ~20 MiB smaller than when Node
// resolves and compiles hundreds of separate dependency files (see docs/architecture.md).
// Chunks sit beside the entry so `import.meta.url`-relative paths (package.json) still hold.
// V8 keeps each loaded chunk's source in the heap for as long as the process runs, at one byte per
// character only when all of it is Latin-1 (else two): ASCII escapes keep it at one. Ordinary and
// JSDoc comments and the whitespace between tokens are dropped (the heap holds them too: 0.5-1 MiB
// of RSS under the bench's load); license comments stay, and nothing is renamed or rewritten, so
// stack traces keep their function names (their columns point into long lines).
const SOURCE_TEXT = {
  charset: "ascii",
  comments: { legal: true, annotation: false, jsdoc: false },
  minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
};

const esm = {
  // The entry loads run-cli.js by its URL (src/cli/main.ts), so run-cli is an entry of its own; so
  // is the PDF reader, a script of its own process (src/agents/media/pdf-extract.ts).
  input: { openclaw: "dist/src/cli/main.js", "run-cli": "dist/src/cli/run-cli.js", "pdf-extract-child": "dist/src/agents/media/pdf-extract-child.js", "image-shrink-child": "dist/src/agents/media/image-shrink-child.js" },
  platform: "node",
  // Native addons cannot be bundled; they load from node_modules at run time. So do the channel
  // SDKs: they resolve platform files at run time (grammY's platform.node), and they are only
  // imported when their channel is configured, so bundling them would buy no start-up time.
  // better-sqlite3 finds its .node file and sqlite-vec its vec0.so relative to their own package
  // at run time; both load only when an agent first uses memory. pdf.js loads its worker file and
  // its canvas (a native addon) beside itself, in the PDF reader's process only. playwright-core
  // finds its own files (its package.json, browser registry, injected scripts) by __dirname, so it
  // cannot be bundled; the browser tool imports it on first use only.
  external: [/^playwright-core(\/|$)/, /\.node$/, /^grammy(\/|$)/, /^discord\.js(\/|$)/, /^@discordjs\//, /^@slack\//, /^better-sqlite3(\/|$)/, /^sqlite-vec(\/|$)/, /^pdfjs-dist(\/|$)/, /^@napi-rs\/canvas(\/|$)/],
  plugins: [fastifyOnDemand(), eagerModuleFactories(), lazyAcpSchemas()],
  output: {
    dir: "dist/bin",
    format: "esm",
    ...SOURCE_TEXT,
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
  },
};

// The same entry as CommonJS, the package's bin: Node starts a CommonJS file without its ES module
// loader, so the gateway's port opens before that loads. It holds only what runs before the port
// opens; it loads the ES module build (run-cli.js) beside it for everything else.
const commonJsEntry = {
  input: { openclaw: "dist/src/cli/main.js" },
  platform: "node",
  output: { dir: "dist/bin", format: "cjs", entryFileNames: "[name].cjs", ...SOURCE_TEXT },
};

export default [esm, commonJsEntry];
