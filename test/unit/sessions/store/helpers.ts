import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { SessionStore, type SessionStoreOptions } from "../../../../src/sessions/store/index.js";

const dirs: string[] = [];
const stores: SessionStore[] = [];

/** A fresh state dir, removed after the test. */
export function makeStateDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-sessions-")));
  dirs.push(dir);
  return dir;
}

/** A store closed (and flushed) after the test; warnings are collected in `warnings`. */
export function openStore(stateDir: string, options: SessionStoreOptions = {}): SessionStore & { collected: string[] } {
  const collected: string[] = [];
  const store = new SessionStore(stateDir, { cwd: "/workspace", ...options, onWarning: (m) => collected.push(m) });
  stores.push(store);
  return Object.assign(store, { collected });
}

export function sessionsDirOf(stateDir: string, agentId = "main"): string {
  return path.join(stateDir, "agents", agentId, "sessions");
}

/** Parses sessions.json; throws (failing the test) when it is not valid JSON. */
export function readIndex(stateDir: string, agentId = "main"): Record<string, Record<string, unknown>> {
  return JSON.parse(fs.readFileSync(path.join(sessionsDirOf(stateDir, agentId), "sessions.json"), "utf8")) as Record<string, Record<string, unknown>>;
}

export function readLines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export function filesIn(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

afterEach(() => {
  for (const store of stores.splice(0)) {
    try {
      store.close();
    } catch {
      // a test may have broken the store on purpose
    }
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
