import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PAIRING_CODE_ALPHABET, PairingStore, type PairingStoreOptions } from "../../../../src/channels/access/pairing-store.js";

/** Draws queued here replace crypto.randomInt's, to force a code collision. */
const rigged = vi.hoisted(() => ({ draws: [] as number[] }));
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, randomInt: (max: number) => rigged.draws.shift() ?? actual.randomInt(max) };
});

afterEach(() => {
  rigged.draws.length = 0;
  vi.restoreAllMocks();
});

const HOUR = 60 * 60_000;

function setup(options: PairingStoreOptions = {}) {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "pairing-"));
  const clock = { now: 1_750_000_000_000 };
  const store = new PairingStore(stateDir, { now: () => clock.now, ...options });
  const credentials = path.join(stateDir, "credentials");
  return { stateDir, clock, store, credentials };
}

function created(outcome: ReturnType<PairingStore["request"]>) {
  if (outcome.status !== "created") throw new Error(`expected created, got ${outcome.status}`);
  return outcome.request;
}

describe("PairingStore", () => {
  it("draws 8-character codes from the whole unambiguous alphabet", () => {
    vi.spyOn(fs, "fsyncSync").mockImplementation(() => {}); // 200 atomic writes; durability is not under test
    const { store, clock } = setup({ maxPendingPerAccount: 1 });
    const codes: string[] = [];
    for (let i = 0; i < 200; i += 1) {
      clock.now += HOUR; // the previous request expires, so each sender gets a fresh code
      codes.push(created(store.request("telegram", "default", `sender-${i}`)).code);
    }
    expect(codes.filter((code) => !/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$/.test(code))).toEqual([]);
    // 1 600 draws: every one of the 32 characters shows up (missing one by chance: ~1e-20).
    expect(new Set(codes.join("")).size).toBe(32);
    expect(PAIRING_CODE_ALPHABET).toHaveLength(32);
    expect(PAIRING_CODE_ALPHABET).not.toMatch(/[01IO]/);
  });

  it("returns the live request for a sender who writes again, with the same code", () => {
    const { store } = setup();
    const first = created(store.request("telegram", "default", "123", { senderName: "Ada" }));
    const again = store.request("telegram", "default", "123");
    expect(again).toEqual({ status: "existing", request: first });
    expect(first).toMatchObject({ channel: "telegram", accountId: "default", senderId: "123", senderName: "Ada", expiresAt: first.createdAt + HOUR });
  });

  it("expires requests after an hour: never listed, not approvable, pruned on the next write", () => {
    const { store, clock, credentials } = setup();
    const request = created(store.request("telegram", "default", "123"));
    clock.now += HOUR - 1;
    expect(store.listPending("telegram")).toHaveLength(1);
    clock.now += 1;
    expect(store.listPending("telegram")).toEqual([]);
    expect(store.approve("telegram", request.code)).toBeNull();
    created(store.request("telegram", "default", "456"));
    const onDisk = JSON.parse(fs.readFileSync(path.join(credentials, "telegram-pairing.json"), "utf8"));
    expect(onDisk.requests.map((r: { id: string }) => r.id)).toEqual(["456"]);
  });

  it("limits live requests to 3 per account; a 4th sender gets a request once one expired", () => {
    const { store, clock } = setup();
    created(store.request("telegram", "default", "a"));
    clock.now += 10 * 60_000;
    created(store.request("telegram", "default", "b"));
    created(store.request("telegram", "default", "c"));
    expect(store.request("telegram", "default", "d")).toEqual({ status: "limited" });
    expect(store.request("telegram", "default", "a").status).toBe("existing");
    // Other accounts and channels have their own budget.
    created(store.request("telegram", "work", "d"));
    created(store.request("discord", "default", "d"));
    clock.now += 50 * 60_000; // "a" is now an hour old
    created(store.request("telegram", "default", "d"));
    expect(store.listPending("telegram", "default").map((r) => r.senderId)).toEqual(["b", "c", "d"]);
  });

  it("approves by code (any case, spaces ignored): the sender moves to allowFrom, and a new instance sees it", () => {
    const { store, stateDir, credentials } = setup();
    const request = created(store.request("telegram", "default", "123"));
    expect(store.isApproved("telegram", "default", "123")).toBe(false);
    expect(store.approve("telegram", `  ${request.code.toLowerCase()} `)).toEqual(request);
    expect(store.listPending("telegram")).toEqual([]);
    expect(store.isApproved("telegram", "default", "123")).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(credentials, "telegram-default-allowFrom.json"), "utf8"))).toEqual({ version: 1, allowFrom: ["123"] });
    const later = new PairingStore(stateDir);
    expect(later.approvedSenders("telegram", "default")).toEqual(["123"]);
    expect(later.isApproved("telegram", "work", "123")).toBe(false);
  });

  it("returns null for a wrong code, another account's code or an already used code", () => {
    const { store } = setup();
    const request = created(store.request("telegram", "work", "123"));
    expect(store.approve("telegram", "ABCDEFGH")).toBeNull();
    expect(store.approve("telegram", "   ")).toBeNull();
    expect(store.approve("telegram", request.code, "default")).toBeNull();
    expect(store.approve("discord", request.code)).toBeNull();
    expect(store.approve("telegram", request.code, "work")).toEqual(request);
    expect(store.approve("telegram", request.code)).toBeNull();
  });

  it("reject removes the request without approving the sender", () => {
    const { store } = setup();
    const request = created(store.request("slack", "default", "U1"));
    expect(store.reject("slack", request.code)).toEqual(request);
    expect(store.isApproved("slack", "default", "U1")).toBe(false);
    expect(store.listPending()).toEqual([]);
    expect(store.reject("slack", request.code)).toBeNull();
  });

  it("writes files 0600 in a 0700 credentials directory, in OpenClaw's layout", () => {
    const { store, credentials } = setup();
    const request = created(store.request("telegram", "default", "123", { senderName: "Ada" }));
    const other = created(store.request("telegram", "default", "456"));
    store.approve("telegram", request.code);
    expect(fs.statSync(credentials).mode & 0o777).toBe(0o700);
    for (const name of fs.readdirSync(credentials)) expect(fs.statSync(path.join(credentials, name)).mode & 0o777).toBe(0o600);
    const pending = JSON.parse(fs.readFileSync(path.join(credentials, "telegram-pairing.json"), "utf8"));
    expect(pending).toEqual({
      version: 1,
      requests: [
        { id: "456", code: other.code, createdAt: new Date(other.createdAt).toISOString(), lastSeenAt: new Date(other.createdAt).toISOString(), meta: { accountId: "default" } },
      ],
    });
  });

  it("sees changes made by a second instance and by another process", () => {
    const { store, stateDir, credentials, clock } = setup();
    const request = created(store.request("telegram", "default", "123"));
    expect(store.listPending("telegram")).toHaveLength(1);

    // The CLI is another process with its own store: approving there must show up here.
    const cli = new PairingStore(stateDir, { now: () => clock.now });
    expect(cli.approve("telegram", request.code)).toMatchObject({ senderId: "123" });
    expect(store.listPending("telegram")).toEqual([]);
    expect(store.isApproved("telegram", "default", "123")).toBe(true);

    // A hand edit in place (same inode) from a real child process.
    const allowFrom = path.join(credentials, "telegram-default-allowFrom.json");
    execFileSync(process.execPath, ["-e", `require("fs").writeFileSync(${JSON.stringify(allowFrom)}, JSON.stringify({ version: 1, allowFrom: ["123", 789] }))`]);
    expect(store.approvedSenders("telegram", "default")).toEqual(["123", "789"]);
  });

  it("merges OpenClaw's unscoped allowFrom file into the default account only", () => {
    const { store, credentials } = setup();
    fs.mkdirSync(credentials, { recursive: true });
    fs.writeFileSync(path.join(credentials, "telegram-allowFrom.json"), JSON.stringify({ version: 1, allowFrom: ["42"] }));
    expect(store.isApproved("telegram", "default", "42")).toBe(true);
    expect(store.isApproved("telegram", "work", "42")).toBe(false);
  });

  it("draws again when a code is already live on the channel", () => {
    const { store } = setup();
    rigged.draws.push(...Array(8).fill(0)); // AAAAAAAA
    expect(created(store.request("telegram", "default", "a")).code).toBe("AAAAAAAA");
    rigged.draws.push(...Array(8).fill(0), ...Array(8).fill(1)); // AAAAAAAA again, then BBBBBBBB
    expect(created(store.request("telegram", "work", "b")).code).toBe("BBBBBBBB");
    expect(rigged.draws).toEqual([]);
  });

  it("refuses hostile channel and account ids before touching the disk", () => {
    const { store, stateDir } = setup();
    for (const hostile of ["../../etc", "telegram/../x", "Telegram", "", "a".repeat(65), "-x", "tele gram", "x\u0000"]) {
      expect(() => store.request(hostile, "default", "1")).toThrow(/invalid channel id/);
      expect(() => store.request("telegram", hostile, "1")).toThrow(/invalid account id/);
      expect(() => store.approve(hostile, "ABCDEFGH")).toThrow(/invalid channel id/);
      expect(() => store.isApproved("telegram", hostile, "1")).toThrow(/invalid account id/);
    }
    expect(fs.readdirSync(stateDir)).toEqual([]);
  });

  it("reports a corrupt file by name instead of silently treating it as empty", () => {
    const { store, credentials } = setup();
    fs.mkdirSync(credentials, { recursive: true });
    fs.writeFileSync(path.join(credentials, "telegram-default-allowFrom.json"), "{ not json");
    expect(() => store.isApproved("telegram", "default", "1")).toThrow(/telegram-default-allowFrom\.json is not valid JSON/);
  });
});
