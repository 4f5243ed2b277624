import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ThreadBindingStore } from "../../../../src/channels/thread-bindings.js";

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
