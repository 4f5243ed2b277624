import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ThreadBindingStore } from "../../../../src/channels/thread-bindings.js";
import { bindingExpiry, threadBindingSettings } from "../../../../src/channels/thread-binding-settings.js";
import { validateConfig } from "../../../../src/config/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "thread-bindings-"));
  dirs.push(dir);
  return dir;
}

const thread = { channel: "slack", accountId: "default", chatId: "C1", threadId: "1700000000.000100" };
const child = "agent:main:subagent:aaaa";

describe("ThreadBindingStore", () => {
  it("binds a thread to a session, keeps it across a restart, and finds only the exact chat + thread", () => {
    const dir = stateDir();
    const store = new ThreadBindingStore(dir);
    expect(store.bind(thread, child, { label: "research", now: 1234 })).toEqual({ ...thread, sessionKey: child, label: "research", createdAt: 1234 });

    const reopened = new ThreadBindingStore(dir);
    expect(reopened.get(thread)).toMatchObject({ sessionKey: child, label: "research", createdAt: 1234 });
    expect(reopened.get({ ...thread, threadId: undefined })).toBeUndefined();
    expect(reopened.get({ ...thread, threadId: "1700000000.000200" })).toBeUndefined();
    expect(reopened.get({ ...thread, accountId: "work" })).toBeUndefined();
    // Slack and Discord ids are case-sensitive.
    expect(reopened.get({ ...thread, chatId: "c1" })).toBeUndefined();

    const file = path.join(dir, "channels", "thread-bindings.json");
    expect(reopened.file).toBe(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it("a chat without a thread is a binding of its own; binding again replaces", () => {
    const store = new ThreadBindingStore(stateDir());
    const chat = { channel: "telegram", accountId: "default", chatId: "-100" };
    store.bind(chat, child);
    store.bind(chat, "agent:main:subagent:bbbb");
    expect(store.list()).toEqual([{ ...chat, sessionKey: "agent:main:subagent:bbbb", createdAt: expect.any(Number) }]);
  });

  it("unbind removes one binding and says which; unbindSession removes every binding of a session", () => {
    const dir = stateDir();
    const store = new ThreadBindingStore(dir);
    const other = { ...thread, threadId: "1700000000.000300" };
    store.bind(thread, child);
    store.bind(other, child);
    store.bind({ ...thread, chatId: "C2" }, "agent:main:subagent:cccc");
    expect(store.unbind(thread)?.sessionKey).toBe(child);
    expect(store.unbind(thread)).toBeUndefined();
    store.bind(thread, child);
    expect(store.unbindSession(child)).toBe(2);
    expect(store.unbindSession(child)).toBe(0);
    expect(new ThreadBindingStore(dir).list().map((b) => b.sessionKey)).toEqual(["agent:main:subagent:cccc"]);
  });

  it("a damaged file is set aside with a warning and the store starts empty", () => {
    const dir = stateDir();
    fs.mkdirSync(path.join(dir, "channels"));
    fs.writeFileSync(path.join(dir, "channels", "thread-bindings.json"), "{ not json");
    const warnings: string[] = [];
    const store = new ThreadBindingStore(dir, (w) => warnings.push(w));
    expect(store.list()).toEqual([]);
    expect(warnings[0]).toMatch(/thread bindings unreadable .*moved to .*thread-bindings\.json\.corrupt-\d+/);
    expect(fs.readdirSync(path.join(dir, "channels")).some((f) => f.startsWith("thread-bindings.json.corrupt-"))).toBe(true);
  });
});

describe("session.threadBindings", () => {
  const HOUR = 3_600_000;
  const binding = { channel: "slack", accountId: "default", chatId: "C1", threadId: "1.2", sessionKey: "agent:main:subagent:x", createdAt: 0 };

  it("defaults: on, idle 24 h, no age limit, spawns allowed; hours may be fractions", () => {
    expect(threadBindingSettings(validateConfig({}, {}).config)).toEqual({ enabled: true, idleMs: 24 * HOUR, maxAgeMs: 0, spawnSessions: true });
    const set = threadBindingSettings(validateConfig({ session: { threadBindings: { enabled: false, idleHours: 0.5, maxAgeHours: 48, spawnSessions: false } } }, {}).config);
    expect(set).toEqual({ enabled: false, idleMs: HOUR / 2, maxAgeMs: 48 * HOUR, spawnSessions: false });
  });

  it("a binding runs out when unused past the idle limit (its last use, else its creation) or older than the age limit; 0 is never", () => {
    const settings = { enabled: true, idleMs: 24 * HOUR, maxAgeMs: 48 * HOUR, spawnSessions: true };
    expect(bindingExpiry(binding, settings, 23 * HOUR)).toBeUndefined();
    expect(bindingExpiry(binding, settings, 24 * HOUR)).toMatch(/unused for session\.threadBindings\.idleHours \(24 h\)/);
    expect(bindingExpiry({ ...binding, lastActivityAt: 30 * HOUR }, settings, 40 * HOUR)).toBeUndefined();
    expect(bindingExpiry({ ...binding, lastActivityAt: 47 * HOUR }, settings, 48 * HOUR)).toMatch(/older than session\.threadBindings\.maxAgeHours \(48 h\)/);
    expect(bindingExpiry(binding, { ...settings, idleMs: 0, maxAgeMs: 0 }, 1000 * HOUR)).toBeUndefined();
  });

  it("a binding's use is kept across a restart, written at most every ten minutes", () => {
    const dir = stateDir();
    const store = new ThreadBindingStore(dir);
    store.bind(binding, binding.sessionKey, { now: 0 });
    store.touch(binding, 60_000);
    expect(new ThreadBindingStore(dir).get(binding)?.lastActivityAt).toBeUndefined();
    store.touch(binding, 11 * 60_000);
    expect(new ThreadBindingStore(dir).get(binding)?.lastActivityAt).toBe(11 * 60_000);
    expect(store.get(binding)?.lastActivityAt).toBe(11 * 60_000);
  });
});
