import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, watchConfig, type ConfigChange, type ConfigError, type ConfigWatchHandle, type LoadedConfig } from "../../../src/config/index.js";
import { makeTempDir, waitFor } from "./temp-dir.js";

const handles: ConfigWatchHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

/** A gateway stand-in: holds the current config and adopts every valid change, like the real one. */
async function startWatching(initialYaml: string) {
  const stateDir = makeTempDir();
  const file = path.join(stateDir, "openclaw.yaml");
  fs.writeFileSync(file, initialYaml);
  let current: LoadedConfig = loadConfig({ stateDir, env: {} });
  const changes: ConfigChange[] = [];
  const invalid: ConfigError[] = [];
  const handle = await watchConfig({
    path: file,
    stateDir,
    env: {},
    debounceMs: 40,
    current: () => current,
    onChange: (change) => {
      changes.push(change);
      current = change.loaded;
    },
    onInvalid: (err) => invalid.push(err),
  });
  handles.push(handle);
  return { stateDir, file, changes, invalid, handle, current: () => current };
}

describe("watchConfig", () => {
  it("reports a valid edit with its changed and restart-requiring paths", async () => {
    const w = await startWatching("gateway:\n  port: 18789\nlogging:\n  level: info\n");
    fs.writeFileSync(w.file, "gateway:\n  port: 18790\nlogging:\n  level: debug\n");
    await waitFor(() => w.changes.length === 1, 5000, "onChange");
    expect(w.changes[0]!.changedPaths).toEqual(["gateway.port", "logging.level"]);
    expect(w.changes[0]!.restartRequiredPaths).toEqual(["gateway.port"]);
    expect(w.changes[0]!.loaded.config.logging.level).toBe("debug");
    expect(w.changes[0]!.loaded.path).toBe(w.file);
    expect(w.invalid).toEqual([]);
  });

  it("reports a broken edit through onInvalid and keeps the old config", async () => {
    const w = await startWatching("logging:\n  level: info\n");
    fs.writeFileSync(w.file, "logging:\n  level: loud\n");
    await waitFor(() => w.invalid.length === 1, 5000, "onInvalid");
    expect(w.invalid[0]!.message).toBe('logging.level: expected one of "fatal", "error", "warn", "info", "debug", "trace", "silent"');
    expect(w.invalid[0]!.filePath).toBe(w.file);
    fs.writeFileSync(w.file, "logging:\n level: info\n  oops: [\n");
    await waitFor(() => w.invalid.length === 2, 5000, "second onInvalid");
    expect(w.invalid[1]!.message).toMatch(/openclaw\.yaml:\d+:\d+: /);
    expect(w.changes).toEqual([]);
    expect(w.current().config.logging.level).toBe("info");
  });

  it("ignores rewrites with the same bytes and edits that change no key", async () => {
    const w = await startWatching("logging:\n  level: info\n");
    fs.writeFileSync(w.file, "logging:\n  level: info\n");
    fs.writeFileSync(w.file, "# only a comment added\nlogging:\n  level: info\n");
    await new Promise((resolve) => setTimeout(resolve, 150)); // let both settle before the real edit
    fs.writeFileSync(w.file, "logging:\n  level: warn\n");
    await waitFor(() => w.changes.length === 1, 5000, "onChange");
    expect(w.changes.map((c) => c.changedPaths)).toEqual([["logging.level"]]);
  });

  it("coalesces a burst of writes into one change", async () => {
    const w = await startWatching("logging:\n  level: info\n");
    for (const level of ["debug", "trace", "warn", "error"]) fs.writeFileSync(w.file, `logging:\n  level: ${level}\n`);
    await waitFor(() => w.changes.length >= 1, 5000, "onChange");
    fs.writeFileSync(w.file, "logging:\n  level: fatal\n");
    await waitFor(() => w.current().config.logging.level === "fatal", 5000, "final change");
    expect(w.changes.map((c) => c.loaded.config.logging.level)).toEqual(["error", "fatal"]);
  });

  it("follows an atomic save (write temp file, rename over the config)", async () => {
    const w = await startWatching("gateway:\n  reload:\n    mode: hybrid\n");
    const temp = path.join(w.stateDir, ".openclaw.yaml.swp");
    fs.writeFileSync(temp, "gateway:\n  reload:\n    mode: 'off'\n");
    fs.renameSync(temp, w.file);
    await waitFor(() => w.changes.length === 1, 5000, "onChange after rename");
    expect(w.changes[0]!.changedPaths).toEqual(["gateway.reload.mode"]);
    expect(w.changes[0]!.restartRequiredPaths).toEqual([]);
    fs.writeFileSync(w.file, "gateway:\n  reload:\n    mode: hybrid\n"); // still watched after the rename
    await waitFor(() => w.changes.length === 2, 5000, "onChange after a later in-place edit");
  });

  it("keeps the config when the file is deleted and picks it up again when recreated", async () => {
    const w = await startWatching("session:\n  mainKey: main\n");
    fs.rmSync(w.file);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(w.changes).toEqual([]);
    expect(w.invalid).toEqual([]);
    fs.writeFileSync(w.file, "session:\n  mainKey: home\n");
    await waitFor(() => w.changes.length === 1, 5000, "onChange after re-creation");
    expect(w.changes[0]!.changedPaths).toEqual(["session.mainKey"]);
  });

  it("picks up a config file created after the gateway started without one", async () => {
    const stateDir = makeTempDir();
    const file = path.join(stateDir, "openclaw.yaml");
    const current = loadConfig({ stateDir, env: {} });
    expect(current.path).toBeNull();
    const changes: ConfigChange[] = [];
    const handle = await watchConfig({
      path: file,
      stateDir,
      env: {},
      debounceMs: 40,
      current: () => current,
      onChange: (change) => changes.push(change),
      onInvalid: () => {},
    });
    handles.push(handle);
    fs.writeFileSync(file, "gateway:\n  port: 18790\n");
    await waitFor(() => changes.length === 1, 5000, "onChange after creation");
    expect(changes[0]!.changedPaths).toEqual(["gateway.port"]);
    expect(changes[0]!.loaded.path).toBe(file);
  });

  it("stops reporting after close()", async () => {
    const w = await startWatching("logging:\n  level: info\n");
    await w.handle.close();
    fs.writeFileSync(w.file, "logging:\n  level: debug\n");
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(w.changes).toEqual([]);
  });
});
