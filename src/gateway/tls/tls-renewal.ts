import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../infra/logger.js";
import type { GatewayTlsFiles } from "./gateway-tls-files.js";
import { loadTlsMaterial, type TlsMaterial } from "./tls-material.js";

/** Renewal tools write several files in a row; one check after they are done. */
const SETTLE_MS = 250;

/**
 * Serves renewed certificates without a restart. The directories holding the certificate, key and
 * CA bundle are watched (so a file replaced by rename, or a symlink there pointed elsewhere, is
 * seen as well as one rewritten in place); after changes settle, the files are loaded and checked whole,
 * and only a complete, matching pair replaces what new connections are served. Open connections
 * keep theirs. A broken or half-written pair is logged and the previous certificate keeps serving.
 * Missing files are never generated here. While `paused()` (gateway.reload.mode off) changes are
 * noted and checked on `resume()`.
 */
export class TlsRenewal {
  private readonly watchers: fs.FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private pending = false;

  constructor(
    private readonly files: GatewayTlsFiles,
    private served: TlsMaterial,
    private readonly apply: (material: TlsMaterial) => void,
    private readonly logger: Logger,
    private readonly paused: () => boolean,
  ) {}

  /** The material new connections get now. */
  get current(): TlsMaterial {
    return this.served;
  }

  start(): void {
    const dirs = new Set([this.files.certPath, this.files.keyPath, ...(this.files.caPath ? [this.files.caPath] : [])].map((file) => path.dirname(file)));
    for (const dir of dirs) {
      try {
        const watcher = fs.watch(dir, { persistent: false }, () => this.schedule());
        watcher.on("error", (err) => this.unwatched(dir, err));
        this.watchers.push(watcher);
      } catch (err) {
        this.unwatched(dir, err as Error);
      }
    }
  }

  /** Loads the files now (SIGHUP, or reload switched back on); a no-op when they are what is served. */
  check(): void {
    this.pending = false;
    let next: TlsMaterial;
    try {
      next = loadTlsMaterial(this.files);
    } catch (err) {
      this.logger.error(
        { error: (err as Error).message, fingerprintSha256: this.served.fingerprint },
        "gateway tls: renewed files not used; the previous certificate keeps serving",
      );
      return;
    }
    if (sameMaterial(next, this.served)) return;
    this.apply(next);
    const previous = this.served.fingerprint;
    this.served = next;
    this.logger.info({ fingerprintSha256: next.fingerprint, previousFingerprintSha256: previous, validTo: next.validTo }, "gateway tls: certificate renewed for new connections");
  }

  /** Checks changes seen while paused. */
  resume(): void {
    if (this.pending) this.check();
  }

  close(): void {
    clearTimeout(this.timer);
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }

  private schedule(): void {
    if (this.paused()) {
      this.pending = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), SETTLE_MS);
    this.timer.unref();
  }

  private unwatched(dir: string, err: Error): void {
    this.logger.warn({ dir, error: err.message }, "gateway tls: cannot watch the certificate's directory; a renewed certificate is served after a SIGHUP or a restart");
  }
}

function sameMaterial(a: TlsMaterial, b: TlsMaterial): boolean {
  const same = (x: Buffer | undefined, y: Buffer | undefined) => (x === undefined ? y === undefined : y !== undefined && x.equals(y));
  return same(a.options.cert, b.options.cert) && same(a.options.key, b.options.key) && same(a.options.ca, b.options.ca);
}
