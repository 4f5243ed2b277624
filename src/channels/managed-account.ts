import type { RunningAccount } from "./dispatch/running-account.js";
import type { ChannelAccountStatus, ChannelLimits } from "./types.js";

/** What the channel manager knows of every configured account, whether or not it runs. */
interface AccountRecord {
  channel: string;
  accountId: string;
  config: Readonly<Record<string, unknown>>;
  limits: ChannelLimits;
  status: ChannelAccountStatus;
  configured: boolean;
  enabled: boolean;
  problems: string[];
  /** The account config and its planned problem as JSON, to tell whether a reload changed either. */
  fingerprint: string;
}

/** An account that was never created: its plugin failed to load, it is disabled, or its config has problems. */
export interface IdleAccount extends AccountRecord {
  state: "idle";
  started: false;
}

/** An account whose plugin object exists; it may still have failed to start. */
export interface CreatedAccount extends AccountRecord, RunningAccount {
  state: "created";
  /**
   * `start()` returned and `stop()` was not called yet. Not the same as `status.running`, which
   * the plugin reports (false after a permanent failure, when `stop()` is still owed).
   */
  started: boolean;
  /** Why `start()` threw; the account stays down until its config changes. */
  startError?: string;
  /** Stopped by the manager (a reload replaced it, the gateway stops): a start that ends later leaves it down. */
  retired?: boolean;
  /** Routes this account registered on the gateway port; removed when it stops. */
  routeKeys: string[];
}

export type ManagedAccount = IdleAccount | CreatedAccount;
