import type { ElevatedLevel } from "../../agents/sandbox/elevated-level.js";
/**
 * What the owner's administration commands (`/config`, `/allowlist`, `/restart`, `/bash`) need
 * from the gateway that runs them. The gateway fills it in for every surface; a command without
 * it says the surface cannot do that.
 */
export interface GatewayAdminPort {
  /** Set when the caller may read but not change the gateway (an operator client without `operator.admin`): writes answer this. */
  writeRefusal?: string;
  /** The config file `/config` and `/allowlist` edit. */
  configFilePath(): string;
  /** Applies the file just written the way `config.set` does (live reload, `config.changed`); the keys that wait for a restart. */
  configWritten(): { applied: boolean; restartRequiredPaths: string[] };
  /** `/debug`: the config values set in memory only, over the file's. */
  runtimeOverrides(): RuntimeOverridesPort;
  /** The DM senders approved by pairing on a channel account. */
  pairedSenders(channel: string, accountId: string): string[];
  /** `/restart`: starts a graceful restart once the reply is out; a refusal text when this gateway cannot restart itself. */
  restart(reason: string): { ok: true } | { ok: false; message: string };
  /** `/bash`: runs `command` as the session's agent would run `exec` (its tool policy, sandbox and exec approvals); the reply, and the output later when it comes after the reply. */
  shell(input: ShellCommandInput): Promise<{ text: string; followUp?: Promise<string> }>;
}

export interface ShellCommandInput {
  sessionKey: string;
  command: string;
  senderIsOwner: boolean;
  /** The channel the command was typed in (tool policy may differ per channel); absent for operator clients. */
  channel?: string;
  /** The session's `/elevated` level for this sender (`off` unless `tools.elevated` admits them): as for `exec`, not `off` runs a sandboxed session's command on the host. */
  elevated: ElevatedLevel;
}

/** Runtime-only config overrides as `/debug` uses them (the gateway validates and applies each change). */
export interface RuntimeOverridesPort {
  list(): { path: string; value: unknown }[];
  set(path: string, value: unknown): RuntimeOverrideChange;
  unset(path: string): RuntimeOverrideChange;
  reset(): RuntimeOverrideChange;
}

export type RuntimeOverrideChange = { ok: true; changedPaths: string[] } | { ok: false; message: string };
