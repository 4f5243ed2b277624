import type {
  AcpRuntimeCapabilities,
  AcpRuntimeDoctorReport,
  AcpRuntimeEnsureInput,
  AcpRuntimeEvent,
  AcpRuntimeHandle,
  AcpRuntimeStatus,
  AcpRuntimeTurnInput,
} from "../runtime/types.js";
import type { AcpManagedRuntime } from "./manager.js";

/**
 * A runtime loaded on first use: the stdio backend brings the ACP SDK (and its schema library),
 * which a gateway that never starts an ACP session should not parse or hold. Until then no
 * session exists, so the synchronous questions have their answers without loading anything.
 */
export class LazyAcpRuntime implements AcpManagedRuntime {
  private loaded: AcpManagedRuntime | undefined;
  private loading: Promise<AcpManagedRuntime> | undefined;

  constructor(private readonly load: () => Promise<AcpManagedRuntime>) {}

  isAlive(sessionKey: string): boolean {
    return this.loaded?.isAlive(sessionKey) ?? false;
  }

  describe(sessionKey: string): { loadSession: boolean; pid?: number } | undefined {
    return this.loaded?.describe(sessionKey);
  }

  async closeAll(reason: string): Promise<void> {
    const runtime = this.loaded ?? (this.loading ? await this.loading : undefined);
    await runtime?.closeAll(reason);
  }

  async ensureSession(input: AcpRuntimeEnsureInput): Promise<AcpRuntimeHandle> {
    return (await this.runtime()).ensureSession(input);
  }

  async *runTurn(input: AcpRuntimeTurnInput): AsyncIterable<AcpRuntimeEvent> {
    yield* (await this.runtime()).runTurn(input);
  }

  async cancel(input: { handle: AcpRuntimeHandle; reason?: string }): Promise<void> {
    return (await this.runtime()).cancel(input);
  }

  async close(input: { handle: AcpRuntimeHandle; reason: string }): Promise<void> {
    return (await this.runtime()).close(input);
  }

  async getCapabilities(input: { handle?: AcpRuntimeHandle }): Promise<AcpRuntimeCapabilities> {
    const runtime = await this.runtime();
    if (!runtime.getCapabilities) throw new Error("this ACP runtime reports no capabilities");
    return runtime.getCapabilities(input);
  }

  async getStatus(input: { handle: AcpRuntimeHandle }): Promise<AcpRuntimeStatus> {
    const runtime = await this.runtime();
    if (!runtime.getStatus) throw new Error("this ACP runtime reports no status");
    return runtime.getStatus(input);
  }

  async doctor(): Promise<AcpRuntimeDoctorReport> {
    const runtime = await this.runtime();
    if (!runtime.doctor) return { ok: false, agents: [] };
    return runtime.doctor();
  }

  private runtime(): Promise<AcpManagedRuntime> {
    this.loading ??= this.load().then((runtime) => (this.loaded = runtime));
    return this.loading;
  }
}
