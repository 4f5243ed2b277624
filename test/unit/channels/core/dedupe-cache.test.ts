import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InboundDedupeCache, type InboundDedupeCacheOptions } from "../../../../src/channels/inbound/dedupe-cache.js";

const caches: InboundDedupeCache[] = [];
afterEach(() => {
  for (const cache of caches.splice(0)) cache.close();
  vi.restoreAllMocks();
});

function tempFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dedupe-")), "channels", "inbound-dedupe.jsonl");
}

function open(file: string, options: InboundDedupeCacheOptions = {}): InboundDedupeCache {
  const cache = InboundDedupeCache.open(file, options);
  caches.push(cache);
  return cache;
}

const fileLines = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
const KEY = "telegram|default|agent:main:main|123||456";

describe("InboundDedupeCache", () => {
  it("claims a key once; a duplicate within the TTL is refused, after the TTL it is new again", () => {
    let now = 1_000_000;
    const cache = open(tempFile(), { now: () => now, ttlMs: 60_000 });
    expect(cache.claim(KEY)).toBe(true);
    expect(cache.claim(KEY)).toBe(false);
    expect(cache.has(KEY)).toBe(true);
    now += 59_999;
    expect(cache.claim(KEY)).toBe(false);
    now += 1;
    expect(cache.has(KEY)).toBe(false);
    expect(cache.size).toBe(0);
    expect(cache.claim(KEY)).toBe(true);
  });

  it("defaults to a 20-minute TTL", () => {
    let now = 0;
    const cache = open(tempFile(), { now: () => now });
    cache.claim(KEY);
    now = 20 * 60_000 - 1;
    expect(cache.has(KEY)).toBe(true);
    now = 20 * 60_000;
    expect(cache.has(KEY)).toBe(false);
  });

  it("survives a reopen once whenDurable has resolved, and expiry still counts from the first claim", async () => {
    const file = tempFile();
    let now = 5_000;
    const first = open(file, { now: () => now, ttlMs: 10_000 });
    const fsync = vi.spyOn(fs, "fsync");
    first.claim("a");
    first.claim("b");
    await first.whenDurable();
    expect(fsync).toHaveBeenCalled();
    first.close();

    now = 14_000;
    const second = open(file, { now: () => now, ttlMs: 10_000 });
    expect(second.claim("a")).toBe(false);
    expect(second.size).toBe(2);
    now = 15_000;
    expect(second.claim("a")).toBe(true);
  });

  it("creates its directory private and its file 0600", () => {
    const file = tempFile();
    open(file).claim(KEY);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("skips a torn last line without throwing and keeps every whole one", () => {
    const file = tempFile();
    const first = open(file, { now: () => 1_000 });
    first.claim("whole-1");
    first.claim("whole-2");
    first.close();
    fs.appendFileSync(file, '{"k":"torn","t":10');

    const second = open(file, { now: () => 1_000 });
    expect(second.has("whole-1") && second.has("whole-2")).toBe(true);
    expect(second.has("torn")).toBe(false);
    // Compaction at open removed the fragment, so the next line is not glued onto it.
    second.claim("after");
    second.close();
    expect(open(file, { now: () => 1_000 }).has("after")).toBe(true);
    expect(fileLines(file).every((line) => JSON.parse(line))).toBeTruthy();
  });

  it("release forgets a key, also across a reopen", () => {
    const file = tempFile();
    const cache = open(file, { now: () => 1_000 });
    cache.claim(KEY);
    cache.release(KEY);
    expect(cache.has(KEY)).toBe(false);
    cache.release("never-claimed");
    expect(fileLines(file)).toHaveLength(2);
    cache.close();
    const reopened = open(file, { now: () => 1_000 });
    expect(reopened.claim(KEY)).toBe(true);
  });

  it("compacts a bloated file down to the live keys, which stay claimed", () => {
    const file = tempFile();
    let now = 0;
    const cache = open(file, { now: () => now, ttlMs: 1_000 });
    for (let i = 0; i < 4_100; i += 1) {
      now += 10;
      cache.claim(`key-${i}`);
    }
    // 100 keys live (1 000 ms / 10 ms); the rest expired and were dropped by compaction.
    expect(fileLines(file).length).toBeLessThan(1_000);
    expect(cache.size).toBe(100);
    expect(cache.claim("key-4099")).toBe(false);
    expect(cache.claim("key-4000")).toBe(false);
    expect(cache.claim("key-3999")).toBe(true);
    cache.close();
    const reopened = open(file, { now: () => now, ttlMs: 1_000 });
    expect(reopened.has("key-4099")).toBe(true);
    expect(reopened.has("key-3000")).toBe(false);
    expect(fileLines(file)).toHaveLength(reopened.size);
  });

  it("evicts the oldest keys beyond maxEntries", () => {
    const file = tempFile();
    let now = 0;
    const cache = open(file, { now: () => ++now, maxEntries: 3 });
    for (const key of ["k1", "k2", "k3", "k4"]) cache.claim(key);
    expect(cache.size).toBe(3);
    expect(cache.has("k1")).toBe(false);
    expect(cache.has("k4")).toBe(true);
    cache.close();
    const reopened = open(file, { now: () => now, maxEntries: 2 });
    expect(["k1", "k2", "k3", "k4"].filter((k) => reopened.has(k))).toEqual(["k3", "k4"]);
  });

  it("refuses empty keys and is unusable after close", () => {
    const cache = open(tempFile());
    expect(() => cache.claim("")).toThrow(/non-empty/);
    cache.close();
    expect(() => cache.claim(KEY)).toThrow(/closed/);
  });
});
