import { SimpleShardingStrategy } from "discord.js";

type ShardManager = ConstructorParameters<typeof SimpleShardingStrategy>[0];

interface DestroyableShard {
  destroy(options?: { recover?: number; code?: number; reason?: string }): Promise<void>;
}

/**
 * Works around @discordjs/ws 1.2.x: destroying a shard while it waits for HELLO or READY aborts
 * that wait, and the aborted wait then calls `destroy({ recover: Reconnect })` by itself. The
 * nested destroy clears the first one's close handler (so `client.destroy()` never resolves) and
 * reconnects the shard 500 ms later (so the destroyed client comes back and logs in again). That
 * is precisely the state the watchdog destroys clients in (a gateway that never sends HELLO).
 *
 * This strategy makes a final destroy (one without `recover`) final: further destroy calls on
 * that shard are ignored. A shard is never reused after it: the connection builds a new Client.
 *
 * It also opens no socket for a client already given up on (`isRetired`): destroying a client
 * while its login still waits for `GET /gateway/bot` does not stop that login, which would
 * otherwise connect and identify once the answer came, long after the account was stopped.
 */
export class FinalDestroyShardingStrategy extends SimpleShardingStrategy {
  constructor(
    manager: ShardManager,
    private readonly isRetired: () => boolean,
  ) {
    super(manager);
  }

  override async connect(): Promise<void> {
    if (this.isRetired()) return;
    await super.connect();
  }

  override async spawn(shardIds: number[]): Promise<void> {
    await super.spawn(shardIds);
    // `shards` is private in the typings but a plain Collection at runtime.
    const { shards } = this as unknown as { shards: Map<number, DestroyableShard> };
    for (const shard of shards.values()) makeFinalDestroyFinal(shard);
  }
}

function makeFinalDestroyFinal(shard: DestroyableShard): void {
  const destroy = shard.destroy.bind(shard);
  let destroyedForGood = false;
  shard.destroy = async (options = {}) => {
    if (destroyedForGood) return;
    if (options.recover === undefined) destroyedForGood = true;
    await destroy(options);
  };
}
