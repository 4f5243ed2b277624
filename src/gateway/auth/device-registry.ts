import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import { ensurePrivateDir } from "../../infra/paths.js";

/** Who a connecting device says it is (its key is proven by the handshake signature). */
export interface DeviceDescriptor {
  deviceId: string;
  publicKey: string;
  clientId: string;
  clientMode: string;
  platform: string;
  displayName?: string;
  role: string;
  scopes: string[];
  remoteAddress: string;
}

export interface PairedDevice extends Omit<DeviceDescriptor, "remoteAddress"> {
  approvedAtMs: number;
  /** sha256 of the device token; absent until the device's first connect after approval. */
  tokenHash?: string;
  tokenIssuedAtMs?: number;
  lastSeenAtMs?: number;
}

export type PairingReason = "not-paired" | "scope-upgrade" | "role-upgrade";

export interface PendingPairing extends DeviceDescriptor {
  requestId: string;
  reason: PairingReason;
  createdAtMs: number;
  expiresAtMs: number;
}

/** Pending requests expire after this long; the device asks again by reconnecting. */
export const PAIRING_REQUEST_TTL_MS = 5 * 60_000;
/** Unanswered requests kept at once; more are refused until some expire or are answered. */
export const MAX_PENDING_PAIRINGS = 50;

interface StoreFile {
  version: 1;
  paired: Record<string, PairedDevice>;
  pending: Record<string, PendingPairing>;
}

export interface DeviceRegistryEvents {
  onRequested?(request: PendingPairing): void;
  onResolved?(resolution: { requestId: string; deviceId: string; decision: "approved" | "rejected"; ts: number }): void;
  onRevoked?(deviceId: string): void;
}

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest();

/**
 * Devices paired with this gateway and the requests waiting for an operator, kept in
 * `<state>/devices.json` (0600). A device token is shown once, to its device; only its hash is
 * stored, and it is accepted only together with the device's key proof.
 */
export class DeviceRegistry {
  private readonly file: string;
  private data: StoreFile;

  constructor(
    private readonly stateDir: string,
    private readonly events: DeviceRegistryEvents = {},
    private readonly now: () => number = Date.now,
  ) {
    this.file = path.join(stateDir, "devices.json");
    this.data = this.load();
  }

  get(deviceId: string): PairedDevice | undefined {
    return this.data.paired[deviceId];
  }

  /** Constant-time check of a presented device token against the stored hash. */
  tokenMatches(deviceId: string, token: string): boolean {
    const stored = this.data.paired[deviceId]?.tokenHash;
    if (!stored) return false;
    return timingSafeEqual(Buffer.from(stored, "hex"), hashToken(token));
  }

  /** A new token for a paired device (the previous one stops working). Returned once, never stored. */
  issueToken(deviceId: string): { token: string; issuedAtMs: number } {
    const device = this.data.paired[deviceId];
    if (!device) throw new Error(`device ${deviceId} is not paired`);
    const token = randomBytes(32).toString("base64url");
    const issuedAtMs = this.now();
    device.tokenHash = hashToken(token).toString("hex");
    device.tokenIssuedAtMs = issuedAtMs;
    device.lastSeenAtMs = issuedAtMs;
    this.save();
    return { token, issuedAtMs };
  }

  /** Records a connect of a paired device (shown by `devices list`); not persisted on every connect. */
  touch(deviceId: string): void {
    const device = this.data.paired[deviceId];
    if (device) device.lastSeenAtMs = this.now();
  }

  /** Pairs a device whose client already holds the gateway's shared secret (its authority is the same). */
  pairTrusted(descriptor: DeviceDescriptor): PairedDevice {
    const { remoteAddress: _remote, ...rest } = descriptor;
    const existing = this.data.paired[descriptor.deviceId];
    const device: PairedDevice = {
      ...existing,
      ...rest,
      scopes: [...new Set([...(existing?.scopes ?? []), ...descriptor.scopes])],
      approvedAtMs: existing?.approvedAtMs ?? this.now(),
    };
    this.data.paired[descriptor.deviceId] = device;
    this.dropPendingOf(descriptor.deviceId);
    this.save();
    return device;
  }

  /**
   * Files (or refreshes) the device's request. A device asking again with other scopes, role or
   * key replaces its earlier request with a new id. Undefined when too many requests are waiting.
   */
  requestPairing(descriptor: DeviceDescriptor, reason: PairingReason): PendingPairing | undefined {
    this.expire();
    const earlier = Object.values(this.data.pending).find((p) => p.deviceId === descriptor.deviceId);
    if (earlier && earlier.role === descriptor.role && earlier.publicKey === descriptor.publicKey && sameSet(earlier.scopes, descriptor.scopes)) return earlier;
    if (earlier) delete this.data.pending[earlier.requestId];
    if (Object.keys(this.data.pending).length >= MAX_PENDING_PAIRINGS) return undefined;
    const createdAtMs = this.now();
    const request: PendingPairing = { ...descriptor, requestId: randomUUID(), reason, createdAtMs, expiresAtMs: createdAtMs + PAIRING_REQUEST_TTL_MS };
    this.data.pending[request.requestId] = request;
    this.save();
    this.events.onRequested?.(request);
    return request;
  }

  list(): { pending: PendingPairing[]; paired: PairedDevice[] } {
    this.expire();
    return {
      pending: Object.values(this.data.pending).sort((a, b) => a.createdAtMs - b.createdAtMs),
      paired: Object.values(this.data.paired).sort((a, b) => a.approvedAtMs - b.approvedAtMs),
    };
  }

  /** Approves a request: the device is paired with the role and scopes it asked for; its token comes on its next connect. */
  approve(requestId: string): PairedDevice | undefined {
    this.expire();
    const request = this.data.pending[requestId];
    if (!request) return undefined;
    const { requestId: _id, reason: _reason, createdAtMs: _created, expiresAtMs: _expires, remoteAddress: _remote, ...descriptor } = request;
    const existing = this.data.paired[request.deviceId];
    // An upgrade keeps the token the device already holds; a new key needs a new token.
    const keepToken = existing && existing.publicKey === request.publicKey ? { tokenHash: existing.tokenHash, tokenIssuedAtMs: existing.tokenIssuedAtMs } : {};
    const device: PairedDevice = { ...descriptor, ...keepToken, approvedAtMs: this.now() };
    this.data.paired[request.deviceId] = device;
    delete this.data.pending[requestId];
    this.save();
    this.events.onResolved?.({ requestId, deviceId: request.deviceId, decision: "approved", ts: this.now() });
    return device;
  }

  reject(requestId: string): PendingPairing | undefined {
    this.expire();
    const request = this.data.pending[requestId];
    if (!request) return undefined;
    delete this.data.pending[requestId];
    this.save();
    this.events.onResolved?.({ requestId, deviceId: request.deviceId, decision: "rejected", ts: this.now() });
    return request;
  }

  /** Unpairs the device: its token stops working and its next connect asks for approval again. */
  revoke(deviceId: string): boolean {
    if (!this.data.paired[deviceId]) return false;
    delete this.data.paired[deviceId];
    this.dropPendingOf(deviceId);
    this.save();
    this.events.onRevoked?.(deviceId);
    return true;
  }

  private dropPendingOf(deviceId: string): void {
    for (const request of Object.values(this.data.pending)) if (request.deviceId === deviceId) delete this.data.pending[request.requestId];
  }

  private expire(): void {
    const now = this.now();
    let changed = false;
    for (const request of Object.values(this.data.pending)) {
      if (request.expiresAtMs <= now) {
        delete this.data.pending[request.requestId];
        changed = true;
      }
    }
    if (changed) this.save();
  }

  private load(): StoreFile {
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, paired: {}, pending: {} };
      throw new Error(`cannot read the device pairing file ${this.file}: ${(err as Error).message}`);
    }
    try {
      const parsed = JSON.parse(text) as Partial<StoreFile>;
      return { version: 1, paired: parsed.paired ?? {}, pending: parsed.pending ?? {} };
    } catch {
      // A damaged file must not keep the gateway down; it is kept aside and pairing starts over.
      fs.renameSync(this.file, `${this.file}.corrupt-${Date.now()}`);
      return { version: 1, paired: {}, pending: {} };
    }
  }

  private save(): void {
    ensurePrivateDir(this.stateDir);
    writeFileAtomicSync(this.file, `${JSON.stringify(this.data, null, 2)}\n`, 0o600);
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}
