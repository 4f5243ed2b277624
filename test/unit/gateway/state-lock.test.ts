import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readLiveLock, StateLock, StateLockError, withStateDirLock } from "../../../src/gateway/state-lock.js";

const info = (pid: number) => ({ pid, host: "127.0.0.1", port: 18789, startedAt: Date.now(), version: "test" });

async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

describe("StateLock", () => {
  let stateDir: string;
  let lockFile: string;
  let lockDir: string;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-lock-"));
    lockFile = path.join(stateDir, "gateway.lock");
    lockDir = path.join(stateDir, "gateway.lock.d");
  });

  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  /** What a gateway in another, still running process leaves on disk. */
  function heldByLiveProcess(): number {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    children.push(child);
    fs.mkdirSync(lockDir);
    fs.writeFileSync(lockFile, JSON.stringify(info(child.pid!)));
    return child.pid!;
  }

  it("takes a free lock, tells readers who holds it, and leaves nothing behind on release", () => {
    const lock = StateLock.acquire(stateDir, info(process.pid));
    expect(fs.existsSync(lockDir)).toBe(true);
    expect(readLiveLock(stateDir)).toMatchObject({ pid: process.pid, port: 18789 });
    lock.update({ port: 4321 });
    expect(readLiveLock(stateDir)?.port).toBe(4321);
    lock.release();
    expect(fs.existsSync(lockDir)).toBe(false);
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it("refuses a lock held by a live gateway, naming its pid and the fix", () => {
    const pid = heldByLiveProcess();
    expect(() => StateLock.acquire(stateDir, info(process.pid))).toThrow(StateLockError);
    expect(() => StateLock.acquire(stateDir, info(process.pid))).toThrow(new RegExp(`pid ${pid}, port 18789.*openclaw gateway stop`));
    expect(JSON.parse(fs.readFileSync(lockFile, "utf8")).pid).toBe(pid);
  });

  it("reclaims at once a lock whose holder died (kill -9 leaves both files)", async () => {
    fs.mkdirSync(lockDir);
    fs.writeFileSync(lockFile, JSON.stringify(info(await exitedPid())));
    const lock = StateLock.acquire(stateDir, info(process.pid));
    expect(readLiveLock(stateDir)?.pid).toBe(process.pid);
    lock.release();
  });

  it("refuses a fresh lock whose holder has not said who it is yet, and takes it once stale", () => {
    fs.mkdirSync(lockDir);
    expect(() => StateLock.acquire(stateDir, info(process.pid))).toThrow(/a gateway that is starting/);
    const longAgo = new Date(Date.now() - 5 * 60_000);
    fs.utimesSync(lockDir, longAgo, longAgo);
    const lock = StateLock.acquire(stateDir, info(process.pid));
    expect(readLiveLock(stateDir)?.pid).toBe(process.pid);
    lock.release();
  });

  it("does not report as running a lock left by a dead gateway whose pid another process now has", () => {
    const pid = heldByLiveProcess();
    expect(readLiveLock(stateDir)?.pid).toBe(pid);
    const longAgo = new Date(Date.now() - 5 * 60_000);
    fs.utimesSync(lockDir, longAgo, longAgo);
    expect(readLiveLock(stateDir)).toBeUndefined();
    fs.rmSync(lockDir, { recursive: true });
    expect(readLiveLock(stateDir)).toBeUndefined();
  });

  it("withStateDirLock: while an offline job holds the lock no gateway starts, and readers see no gateway; it is released after", async () => {
    // A dead gateway's info file is dropped: a starting gateway would otherwise take the lock over from its dead holder.
    fs.writeFileSync(lockFile, JSON.stringify(info(await exitedPid())));
    const seen = withStateDirLock(stateDir, () => {
      expect(() => StateLock.acquire(stateDir, info(process.pid))).toThrow(/a gateway that is starting/);
      return { live: readLiveLock(stateDir), lockFile: fs.existsSync(lockFile) };
    });
    expect(seen).toEqual({ live: undefined, lockFile: false });
    expect(fs.existsSync(lockDir)).toBe(false);
    StateLock.acquire(stateDir, info(process.pid)).release();
  });

  it("withStateDirLock refuses a lock a gateway holds, naming it, runs nothing, and releases the lock when the job throws", () => {
    const pid = heldByLiveProcess();
    let ran = false;
    expect(() => withStateDirLock(stateDir, () => (ran = true))).toThrow(new RegExp(`locked \\(${lockDir}\\) by pid ${pid}, port 18789`));
    expect(ran).toBe(false);
    fs.rmSync(lockDir, { recursive: true });
    fs.rmSync(lockFile);
    expect(() =>
      withStateDirLock(stateDir, () => {
        throw new Error("job failed");
      }),
    ).toThrow("job failed");
    expect(fs.existsSync(lockDir)).toBe(false);
  });

  it("takes over a bare gateway.lock left by an older version whose pid is gone", async () => {
    fs.writeFileSync(lockFile, JSON.stringify(info(await exitedPid())));
    const lock = StateLock.acquire(stateDir, info(process.pid));
    expect(readLiveLock(stateDir)?.pid).toBe(process.pid);
    lock.release();
  });

  it("a reader in another process never finds the lock file empty or torn while its holder rewrites it (config reloads)", async () => {
    const lock = StateLock.acquire(stateDir, info(process.pid));
    // The reader counts its reads and the ones that did not parse, until the file says it is done.
    const reader = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("fs"); let reads = 0, torn = 0;
         for (;;) { let text; try { text = fs.readFileSync(process.argv[1], "utf8"); } catch { continue; }
           reads++; let parsed; try { parsed = JSON.parse(text); } catch { torn++; continue; }
           if (parsed.stopDeadlineMs === -1) break; }
         process.stdout.write(JSON.stringify({ reads, torn }));`,
        lockFile,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(reader);
    let out = "";
    reader.stdout!.on("data", (chunk) => (out += chunk));
    const exited = new Promise((resolve) => reader.once("exit", resolve));
    for (let i = 0; i < 1_000; i++) {
      lock.update({ stopDeadlineMs: i });
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    lock.update({ stopDeadlineMs: -1 });
    await exited;
    const { reads, torn } = JSON.parse(out) as { reads: number; torn: number };
    expect(reads).toBeGreaterThan(0);
    expect(torn).toBe(0);
    lock.release();
  });
});
