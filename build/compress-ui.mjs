// Writes a .gz and a .br twin beside each text file of the built Control UI, once at build time,
// so the gateway sends compressed bytes without compressing per request.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const root = new URL("../dist/control-ui/", import.meta.url);
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

for (const file of files(root.pathname)) {
  const bytes = fs.readFileSync(file);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
}
