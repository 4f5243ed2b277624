import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// The Control UI: built into dist/control-ui/ (shipped with the package), served by the gateway.
// Relative URLs let the same build work at "/" and under gateway.controlUi.basePath. Hashed
// file names under assets/ are what lets the gateway mark them immutable.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  publicDir: false,
  define: { __UI_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: fileURLToPath(new URL("../dist/control-ui/", import.meta.url)),
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
    // No inline polyfill script: the page's CSP allows scripts from files only.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
