import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const shared = { testTimeout: 30_000, hookTimeout: 30_000, pool: "forks" } as const;

const root = path.dirname(fileURLToPath(import.meta.url));
const testFiles = fs
  .readdirSync(path.join(root, "test"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => path.join("test", file));

/**
 * Files that need a process no other test file ran in first: those that replace a module with
 * `vi.mock` / `vi.doMock` (a mock only takes the place of a module not yet loaded, and would stay
 * in place for the files after it), found by reading them; one that checks whether a dependency
 * is loaded yet; one that removes variables from its own environment, which the commands of the
 * files after it would inherit.
 */
const needsOwnProcess = [
  ...testFiles.filter((file) => /\bvi\.(mock|doMock)\(/.test(fs.readFileSync(path.join(root, file), "utf8"))),
  "test/unit/models/openai-sdk-on-demand.test.ts",
  "test/e2e/cli-compile-cache.test.ts",
];

export default defineConfig({
  test: {
    // Two cores: e2e files each spawn a gateway process.
    maxWorkers: 2,
    // The root's setup runs once for the run, whichever projects the run selects.
    globalSetup: ["test/temp-dir-setup.ts"],
    // A test file runs in a worker process that runs other files before and after it, with the
    // modules they loaded: a fresh process per file cost ~0.3 s of CPU, more than most unit
    // files take to run. So every file leaves no state behind it: timers, mocks, globals and
    // environment variables it changes are put back, and what it starts is stopped.
    projects: [
      // Every test file outside test/e2e is a unit file, so none is left out of the run.
      { test: { ...shared, name: "unit", include: ["test/**/*.test.ts"], exclude: [...needsOwnProcess, "test/e2e/**"], isolate: false } },
      { test: { ...shared, name: "e2e", include: ["test/e2e/**/*.test.ts"], exclude: needsOwnProcess, isolate: false } },
      { test: { ...shared, name: "own-process", include: needsOwnProcess } },
    ],
  },
});
