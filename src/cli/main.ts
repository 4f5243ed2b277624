#!/usr/bin/env node
import { loadStateDotEnv } from "../config/env-sources.js";
import { resolveStateDir } from "../config/paths.js";
import { listenEarly } from "../gateway/early-listen.js";
import type * as RunCli from "./run-cli.js";
import { enableCompileCache } from "./compile-cache.js";
import { parseGatewayRunArgs } from "./gateway-run-args.js";
import { applyNoColorEnv, applyProfileEnv, scanRootOptions } from "./root-options.js";

/**
 * The `openclaw` command's entry, bundled twice: as CommonJS (`dist/bin/openclaw.cjs`, the
 * package's bin) and as an ES module (`dist/bin/openclaw.js`). A plain `gateway run` line opens
 * its port here first when the address is known that early (loopback, plain flags and config:
 * src/gateway/early-listen.ts), before anything else is read; only then does the rest of the CLI
 * load (run-cli.ts). From the CommonJS build that includes Node's ES module loader, which costs a
 * gateway started with V8 flags more than the early port itself (docs/architecture.md).
 */
// The global `--dev`, `--profile` and `--no-color` act through the environment before anything reads it.
const root = scanRootOptions(process.argv.slice(2));
if (root.ok) {
  if (root.profile) applyProfileEnv(root.profile, process.env);
  if (root.noColor) applyNoColorEnv(process.env);
  process.argv.splice(2, Infinity, ...root.args);
}
// `<state>/.env` fills what the environment lacks, before anything reads it (the port, the token, provider keys).
const dotEnv = loadStateDotEnv(resolveStateDir(process.env), process.env);
if (dotEnv.warning) process.stderr.write(`openclaw: ${dotEnv.warning}\n`);
const gatewayRun = root.ok ? parseGatewayRunArgs(process.argv.slice(2)) : undefined;
const early = gatewayRun ? listenEarly(gatewayRun, process.env) : undefined;
// Before the rest of the CLI loads, so its chunks come from the cache (compile-cache.ts says when).
enableCompileCache(process.argv.slice(2), process.env);
// Resolved at run time beside this file, so both builds (and the unbundled tsc output) load the ES module build of the CLI.
const runCliUrl = new URL("./run-cli.js", import.meta.url).href;
(import(runCliUrl) as Promise<typeof RunCli>).then(
  ({ runCli, reportRootOptionsError }) => (root.ok ? runCli(gatewayRun, early) : reportRootOptionsError(root.error)),
  (err: Error) => {
    process.stderr.write(`openclaw: cannot load the CLI (${runCliUrl}): ${err.message}\n`);
    process.exit(1);
  },
);
