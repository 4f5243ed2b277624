import { defineConfig } from "vitest/config";

/** Checks against real outside clients that `npm test` does not run (they need downloads): test/checks/README.md. */
export default defineConfig({
  test: {
    include: ["test/checks/**/*.check.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
    pool: "forks",
  },
});
