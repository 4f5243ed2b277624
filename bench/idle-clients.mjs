// rss1000IdleClientsMiB: many authenticated, idle WebSocket clients held open at once.
import { closeClient, connectHello, rpc } from "./lib/ws-client.mjs";
import { MiB, now, round, sleep, StepError, withTimeout } from "./lib/util.mjs";

/**
 * Open `count` clients in concurrent batches of `batchSize`, wait `settleMs`, read the gateway's
 * RSS, prove it still answers with one `health` call, then close every client.
 */
export async function measureIdleClients({ gw, url, token, idleRssBytes, count = 1000, batchSize = 50, settleMs = 1000 }) {
  const clients = [];
  try {
    const openStart = now();
    for (let offset = 0; offset < count; offset += batchSize) {
      const step = `idle-clients: open clients ${offset + 1}-${Math.min(count, offset + batchSize)}`;
      gw.ensureRunning(step);
      const batch = Array.from({ length: Math.min(batchSize, count - offset) }, (_, i) => connectHello(url, token, { timeoutMs: 10_000, step: `${step} (#${offset + i + 1})` }));
      const settled = await Promise.allSettled(batch);
      for (const r of settled) if (r.status === "fulfilled") clients.push(r.value.ws);
      const failed = settled.find((r) => r.status === "rejected");
      if (failed) {
        const n = settled.filter((r) => r.status === "rejected").length;
        throw new StepError(step, `${n} of ${batch.length} connects failed with ${clients.length} clients open; first: ${failed.reason.message}`);
      }
    }
    const openAllMs = now() - openStart;

    await sleep(settleMs);
    const rssBytes = gw.rssBytes("idle-clients: read RSS");

    const health = await rpc(clients[0], "health", {}, { timeoutMs: 5000, step: "idle-clients: health RPC" });
    // Process facts (pid, connections, memory) come from `status`; `health` keeps OpenClaw's closed shape.
    const status = await rpc(clients[0], "status", {}, { timeoutMs: 5000, step: "idle-clients: status RPC" });
    const g = { ...(status.payload ?? {}), rssBytes: status.payload?.processMemory?.rssBytes };
    if (g.pid !== gw.pid) {
      throw new StepError("idle-clients: status RPC", `status.pid is ${g.pid}, expected ${gw.pid}`);
    }
    const stillOpen = clients.filter((ws) => ws.readyState === ws.OPEN).length;

    return {
      clients: count,
      stillOpen,
      openAllMs: round(openAllMs, 0),
      rssMiB: round(rssBytes / MiB, 1),
      perClientKiB: round((rssBytes - idleRssBytes) / 1024 / count, 1),
      health: {
        ok: health.payload?.ok === true,
        latencyMs: round(health.ms, 2),
        connections: g.connections,
        reportedRssMiB: typeof g.rssBytes === "number" ? round(g.rssBytes / MiB, 1) : undefined,
      },
    };
  } finally {
    await withTimeout(Promise.all(clients.map((ws) => closeClient(ws))), 10_000, "idle-clients: close clients", () => {
      for (const ws of clients) ws.terminate();
    }).catch(() => {});
  }
}
