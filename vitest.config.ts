import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: e2e files each spawn a gateway process.
    maxWorkers: 2,
    pool: "forks",
    globalSetup: ["test/temp-dir-setup.ts"],
  },
});
