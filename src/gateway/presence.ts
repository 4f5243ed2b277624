/** PresenceEntry of the wire protocol; all but `ts` optional. */
export interface PresenceEntry {
  ts: number;
  host?: string;
  ip?: string;
  version?: string;
  platform?: string;
  deviceFamily?: string;
  modelIdentifier?: string;
  timeZone?: string;
  mode?: string;
  reason?: string;
  text?: string;
  deviceId?: string;
  roles?: string[];
  scopes?: string[];
  instanceId?: string;
  onlineSince?: number;
  lastActivityAt?: number;
}

/**
 * Who is connected, keyed by connection. Each change bumps `version`, which clients see as
 * `stateVersion.presence` and use to notice missed `presence` events.
 */
export class PresenceTracker {
  private readonly entries = new Map<string, PresenceEntry>();
  private versionCounter = 0;

  constructor(private readonly onChange: (entries: PresenceEntry[], version: number) => void = () => {}) {}

  get version(): number {
    return this.versionCounter;
  }

  list(): PresenceEntry[] {
    return [...this.entries.values()];
  }

  upsert(connId: string, entry: PresenceEntry): void {
    this.entries.set(connId, entry);
    this.changed();
  }

  remove(connId: string): void {
    if (this.entries.delete(connId)) this.changed();
  }

  private changed(): void {
    this.versionCounter += 1;
    this.onChange(this.list(), this.versionCounter);
  }
}
