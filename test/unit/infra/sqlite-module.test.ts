import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.doUnmock("better-sqlite3");
  vi.resetModules();
});

describe("loadSqlite", () => {
  it("loads better-sqlite3 once for every store that asks", async () => {
    const { loadSqlite } = await import("../../../src/infra/sqlite-module.js");
    const real = (await import("better-sqlite3")).default;
    expect(await loadSqlite("cron")).toBe(real);
    expect(await loadSqlite("memory")).toBe(real);
  });

  it("names the store that is unavailable when the module does not load, and tries again on the next call", async () => {
    vi.doMock("better-sqlite3", () => {
      throw new Error("invalid ELF header");
    });
    const { loadSqlite } = await import("../../../src/infra/sqlite-module.js");
    await expect(loadSqlite("traces")).rejects.toThrow(/^traces unavailable: the SQLite module \(better-sqlite3\) did not load: .+\. Reinstall with npm ci\.$/);
    vi.doUnmock("better-sqlite3");
    expect(typeof (await loadSqlite("traces"))).toBe("function");
  });
});
