import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryFixture, type MemoryFixture } from "./helpers.js";

let fixture: MemoryFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** Waits (polling status, which never syncs by itself) until a sync after `since` has settled with `check` true. */
async function settled(f: MemoryFixture, since: string | undefined, check: (files: number) => boolean): Promise<void> {
  for (;;) {
    const status = await f.service.status("main");
    if (status.lastSyncAt !== since && !status.dirty && !status.indexing && check(status.files)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("memory watcher", () => {
  it("indexes new, changed and deleted notes (also in a new subfolder) by itself, and ignores other workspace files", async () => {
    fixture = memoryFixture({ provider: "none", sync: { watchDebounceMs: 100 } }, { watch: true });
    fixture.write("MEMORY.md", "The first fact.\n");
    await fixture.service.sync("main");
    const search = async (q: string) => (await fixture!.service.search("main", q)).results.map((r) => r.path);

    let since = (await fixture.service.status("main")).lastSyncAt;
    fixture.write("memory/2026-11-30.md", "The heron nests by the river.\n");
    await settled(fixture, since, (files) => files === 2);
    expect(await search("heron")).toEqual(["memory/2026-11-30.md"]);

    since = (await fixture.service.status("main")).lastSyncAt;
    fixture.write("MEMORY.md", "The second fact about otters.\n");
    await settled(fixture, since, () => true);
    expect(await search("otters")).toEqual(["MEMORY.md"]);

    since = (await fixture.service.status("main")).lastSyncAt;
    fixture.write("memory/projects/kestrel.md", "Project Kestrel ships in spring.\n");
    await settled(fixture, since, (files) => files === 3);
    expect(await search("kestrel")).toEqual(["memory/projects/kestrel.md"]);

    since = (await fixture.service.status("main")).lastSyncAt;
    fs.rmSync(path.join(fixture.workspace, "memory", "2026-11-30.md"));
    await settled(fixture, since, (files) => files === 2);
    expect(await search("heron")).toEqual([]);

    fixture.write("notes.md", "A heron outside the memory paths.\n");
    expect(await search("heron")).toEqual([]);
  }, 30_000);
});

describe("memory without a watcher", () => {
  it("with sync.watch false, a search and memory.status compare the files and pick up a new note", async () => {
    fixture = memoryFixture({ provider: "none", sync: { watch: false } }, { watch: true });
    fixture.write("MEMORY.md", "The first fact.\n");
    await fixture.service.sync("main");
    expect((await fixture.service.status("main")).dirty).toBe(false);

    fixture.write("memory/2026-12-07.md", "The kingfisher fishes at dawn.\n");
    expect((await fixture.service.status("main")).dirty).toBe(true);
    const found = await fixture.service.search("main", "kingfisher");
    expect(found.results.map((r) => r.path)).toEqual(["memory/2026-12-07.md"]);
    const status = await fixture.service.status("main");
    expect(status).toMatchObject({ dirty: false, files: 2 });
  });
});
