import fs from "node:fs";
import path from "node:path";
import { randomInt } from "node:crypto";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import { ensurePrivateDir } from "../../infra/paths.js";

export interface PairingRequest {
  channel: string;
  accountId: string;
  senderId: string;
  code: string;
  createdAt: number;
  expiresAt: number;
  senderName?: string;
}

export type PairingRequestOutcome = { status: "created" | "existing"; request: PairingRequest } | { status: "limited" };

export interface PairingStoreOptions {
  now?: () => number;
  /** How long a code can be approved (default 1 hour). */
  ttlMs?: number;
  /** Live requests per channel account; further unknown senders are ignored (default 3). */
  maxPendingPerAccount?: number;
}

export const PAIRING_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const PAIRING_CODE_LENGTH = 8;
export const DEFAULT_PAIRING_TTL_MS = 60 * 60_000;
export const DEFAULT_MAX_PENDING_PER_ACCOUNT = 3;
const DEFAULT_ACCOUNT_ID = "default";
/** Ids become file names: this shape can never contain a path separator or `..`. */
const SAFE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const MAX_SENDER_ID_LENGTH = 256;
const PAIRING_SUFFIX = "-pairing.json";

/** `<channel>-pairing.json` as OpenClaw writes it: ISO times, the account in `meta`. */
interface StoredRequest {
  id: string;
  code: string;
  createdAt: string;
  lastSeenAt: string;
  meta?: Record<string, string>;
}

/**
 * DM pairing (see docs/channels.md, "Who may talk to the bot"): an unknown sender gets a code, the
 * owner approves it from the CLI, and the sender lands in the account's allowFrom file. Files use
 * OpenClaw's legacy layout under `<state>/credentials/`, so existing installs and community tools
 * keep working:
 *   `<channel>-pairing.json`                 `{ version: 1, requests: [{ id, code, createdAt, lastSeenAt, meta: { accountId } }] }`
 *   `<channel>-<accountId>-allowFrom.json`   `{ version: 1, allowFrom: ["123", …] }`
 *
 * The CLI changes these files from another process while the gateway runs, so every read checks
 * the file's identity (inode, size, mtime, ctime) and re-parses it when it changed; every change
 * re-reads, modifies and replaces the file atomically (0600, in a 0700 directory).
 */
export class PairingStore {
  private readonly credentialsDir: string;
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly maxPending: number;
  private readonly cache = new Map<string, { stamp: string; value: unknown }>();

  constructor(stateDir: string, options: PairingStoreOptions = {}) {
    this.credentialsDir = path.join(path.resolve(stateDir), "credentials");
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? DEFAULT_PAIRING_TTL_MS;
    this.maxPending = options.maxPendingPerAccount ?? DEFAULT_MAX_PENDING_PER_ACCOUNT;
  }

  /**
   * An unknown sender wrote: create a request, or return the live one. `existing` means the
   * pairing reply was already sent and must not be sent again; `limited` means the account
   * already has `maxPendingPerAccount` other live requests, and the message is ignored.
   */
  request(channel: string, accountId: string, senderId: string, meta: { senderName?: string } = {}): PairingRequestOutcome {
    assertSafeId(channel, "channel");
    assertSafeId(accountId, "account");
    assertSenderId(senderId);
    const requests = this.liveRequests(channel);
    const existing = requests.find((r) => accountOf(r) === accountId && r.id === senderId);
    if (existing) return { status: "existing", request: this.toRequest(channel, existing) };
    if (requests.filter((r) => accountOf(r) === accountId).length >= this.maxPending) return { status: "limited" };

    const at = new Date(this.now()).toISOString();
    const stored: StoredRequest = {
      id: senderId,
      code: uniqueCode(new Set(requests.map((r) => r.code))),
      createdAt: at,
      lastSeenAt: at,
      meta: { accountId, ...(meta.senderName ? { senderName: meta.senderName } : {}) },
    };
    this.writePending(channel, [...requests, stored]);
    return { status: "created", request: this.toRequest(channel, stored) };
  }

  /** Live requests, oldest first; expired ones are never listed. Without a channel: every channel's. */
  listPending(channel?: string, accountId?: string): PairingRequest[] {
    if (accountId !== undefined) assertSafeId(accountId, "account");
    const channels = channel === undefined ? this.pairingChannels() : [assertSafeId(channel, "channel")];
    return channels
      .flatMap((c) => this.liveRequests(c).map((r) => this.toRequest(c, r)))
      .filter((r) => accountId === undefined || r.accountId === accountId)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Approve by code (case-insensitive, surrounding spaces ignored): the sender joins the
   * account's allowFrom file and the request is removed. Null for an unknown or expired code.
   */
  approve(channel: string, code: string, accountId?: string): PairingRequest | null {
    const found = this.findByCode(channel, code, accountId);
    if (!found) return null;
    // allowFrom first: a crash in between leaves an approved sender with a stale request, never the reverse.
    const { accountId: account, senderId } = found.request;
    const scoped = this.readAllowFrom(this.allowFromPath(channel, account));
    if (!scoped.includes(senderId)) this.writeJson(this.allowFromPath(channel, account), { version: 1, allowFrom: [...scoped, senderId] });
    this.writePending(channel, found.remaining);
    return found.request;
  }

  /** Drop a request by code. Null for an unknown or expired code. */
  reject(channel: string, code: string, accountId?: string): PairingRequest | null {
    const found = this.findByCode(channel, code, accountId);
    if (!found) return null;
    this.writePending(channel, found.remaining);
    return found.request;
  }

  isApproved(channel: string, accountId: string, senderId: string): boolean {
    return this.approvedSenders(channel, accountId).includes(senderId);
  }

  /**
   * Sender ids approved for this account. The default account also reads OpenClaw's unscoped
   * `<channel>-allowFrom.json`, so approvals made before accounts existed keep working.
   */
  approvedSenders(channel: string, accountId: string): string[] {
    assertSafeId(channel, "channel");
    assertSafeId(accountId, "account");
    const scoped = this.readAllowFrom(this.allowFromPath(channel, accountId));
    if (accountId !== DEFAULT_ACCOUNT_ID) return [...scoped];
    const legacy = this.readAllowFrom(path.join(this.credentialsDir, `${channel}-allowFrom.json`));
    return [...new Set([...scoped, ...legacy])];
  }

  private findByCode(channel: string, code: string, accountId: string | undefined): { request: PairingRequest; remaining: StoredRequest[] } | null {
    assertSafeId(channel, "channel");
    if (accountId !== undefined) assertSafeId(accountId, "account");
    if (typeof code !== "string") throw new TypeError("pairing code must be a string");
    const wanted = code.trim().toUpperCase();
    if (wanted.length === 0) return null;
    const requests = this.liveRequests(channel);
    const index = requests.findIndex((r) => r.code === wanted && (accountId === undefined || accountOf(r) === accountId));
    if (index < 0) return null;
    return { request: this.toRequest(channel, requests[index]!), remaining: requests.filter((_, i) => i !== index) };
  }

  private liveRequests(channel: string): StoredRequest[] {
    const file = this.pendingPath(channel);
    const stored = this.readJson(file, parsePending);
    return (stored ?? []).filter((r) => !this.isExpired(r));
  }

  /** Expired requests are left out of every write: pruning happens on write. */
  private writePending(channel: string, requests: StoredRequest[]): void {
    const live = requests.filter((r) => !this.isExpired(r));
    this.writeJson(this.pendingPath(channel), { version: 1, requests: live });
  }

  private readAllowFrom(file: string): string[] {
    return this.readJson(file, parseAllowFrom) ?? [];
  }

  /** Parsed content of a JSON file, re-read only when the file changed since the last read. */
  private readJson<T>(file: string, parse: (value: unknown, file: string) => T): T | undefined {
    const stamp = statStamp(file);
    if (stamp === undefined) {
      this.cache.delete(file);
      return undefined;
    }
    const cached = this.cache.get(file);
    if (cached?.stamp === stamp) return cached.value as T;
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix or remove it`);
    }
    const value = parse(raw, file);
    this.cache.set(file, { stamp, value });
    return value;
  }

  private writeJson(file: string, content: unknown): void {
    ensurePrivateDir(this.credentialsDir);
    writeFileAtomicSync(file, `${JSON.stringify(content, null, 2)}\n`, 0o600);
    // Not cached: another process may replace the file before we could stat ours. The next read re-parses.
    this.cache.delete(file);
  }

  /** Channels with a pending-requests file. */
  private pairingChannels(): string[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.credentialsDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    return names
      .filter((name) => name.endsWith(PAIRING_SUFFIX))
      .map((name) => name.slice(0, -PAIRING_SUFFIX.length))
      .filter((channel) => SAFE_ID.test(channel))
      .sort();
  }

  private isExpired(request: StoredRequest): boolean {
    return this.now() >= Date.parse(request.createdAt) + this.ttlMs;
  }

  private toRequest(channel: string, stored: StoredRequest): PairingRequest {
    const createdAt = Date.parse(stored.createdAt);
    const request: PairingRequest = { channel, accountId: accountOf(stored), senderId: stored.id, code: stored.code, createdAt, expiresAt: createdAt + this.ttlMs };
    if (stored.meta?.senderName) request.senderName = stored.meta.senderName;
    return request;
  }

  private pendingPath(channel: string): string {
    return path.join(this.credentialsDir, `${channel}${PAIRING_SUFFIX}`);
  }

  private allowFromPath(channel: string, accountId: string): string {
    return path.join(this.credentialsDir, `${channel}-${accountId}-allowFrom.json`);
  }
}

/** Requests from OpenClaw builds before multi-account support carry no account: the default one. */
function accountOf(request: StoredRequest): string {
  return request.meta?.accountId || DEFAULT_ACCOUNT_ID;
}

function uniqueCode(taken: Set<string>): string {
  // 32^8 codes against at most a few live ones: a collision is rare, a second one rarer still.
  for (;;) {
    let code = "";
    for (let i = 0; i < PAIRING_CODE_LENGTH; i += 1) code += PAIRING_CODE_ALPHABET[randomInt(PAIRING_CODE_ALPHABET.length)];
    if (!taken.has(code)) return code;
  }
}

/** Identity of the file's current version: an atomic replace changes the inode, an edit in place the times. */
function statStamp(file: string): string | undefined {
  try {
    const s = fs.statSync(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

function parsePending(raw: unknown, file: string): StoredRequest[] {
  const requests = (raw as { requests?: unknown } | null)?.requests;
  if (!Array.isArray(requests)) throw new Error(`${file} must be { "version": 1, "requests": [...] }; fix or remove it`);
  // A hand-edited entry that is not a request is skipped rather than blocking every other sender.
  return requests.filter(
    (r): r is StoredRequest => typeof r === "object" && r !== null && typeof r.id === "string" && typeof r.code === "string" && Number.isFinite(Date.parse(r.createdAt)),
  );
}

function parseAllowFrom(raw: unknown, file: string): string[] {
  const allowFrom = (raw as { allowFrom?: unknown } | null)?.allowFrom;
  if (!Array.isArray(allowFrom)) throw new Error(`${file} must be { "version": 1, "allowFrom": [...] }; fix or remove it`);
  // Hand-written Telegram ids are often numbers; anything else is not a sender id.
  const ids = allowFrom.filter((id) => typeof id === "string" || typeof id === "number").map((id) => String(id).trim());
  return [...new Set(ids.filter((id) => id.length > 0))];
}

function assertSafeId(id: string, what: "channel" | "account"): string {
  if (typeof id !== "string" || !SAFE_ID.test(id)) {
    throw new TypeError(
      `invalid ${what} id ${JSON.stringify(String(id)).slice(0, 80)}: expected lowercase letters, digits, "_" or "-" (at most 64, starting with a letter or digit)`,
    );
  }
  return id;
}

function assertSenderId(senderId: string): void {
  if (typeof senderId !== "string" || senderId.trim().length === 0 || senderId.length > MAX_SENDER_ID_LENGTH) {
    throw new TypeError(`sender id must be a non-empty string of at most ${MAX_SENDER_ID_LENGTH} characters`);
  }
}
