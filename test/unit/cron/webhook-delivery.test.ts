import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { cronHarness, settle, type Harness } from "./cron-harness.js";

const open: Harness[] = [];
const servers: http.Server[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.service.stop();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function receiver(): Promise<{ url: string; requests: { headers: http.IncomingHttpHeaders; body: any }[] }> {
  const requests: { headers: http.IncomingHttpHeaders; body: any }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests.push({ headers: req.headers, body: JSON.parse(body) });
      res.end("ok");
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, requests };
}

/** An hourly isolated job that answers "result" to a webhook on a local receiver, run once by advancing the clock an hour. */
async function runWebhookJob(options: Parameters<typeof cronHarness>[0] = {}, beforeRun: (h: Harness) => void = () => {}) {
  const target = await receiver();
  const h = await cronHarness(options);
  open.push(h);
  h.conversations.autoReply = () => ({ status: "ok", text: "result" });
  const job = await h.service.add({
    name: "w",
    schedule: { kind: "every", every: "1h" },
    sessionTarget: "isolated",
    payload: { kind: "agentTurn", message: "m" },
    delivery: { mode: "webhook", to: target.url },
  });
  beforeRun(h);
  h.clock.advance(3_600_000);
  await settle(h.service);
  return { target, h, job };
}

describe("cron webhook delivery", () => {
  it("refuses a job whose webhook is a loopback, private or link-local address unless cron.webhookSsrfPolicy allows it, and stores nothing", async () => {
    const h = await cronHarness();
    open.push(h);
    for (const to of ["http://127.0.0.1:9/hook", "http://10.1.2.3/hook", "http://[::1]:9/hook", "http://169.254.169.254/latest"]) {
      const job = { name: "w", schedule: { kind: "every", every: "1h" }, sessionTarget: "isolated", payload: { kind: "agentTurn", message: "m" } } as const;
      await expect(h.service.add({ ...job, delivery: { mode: "webhook", to } }), to).rejects.toThrow(
        /^delivery\.to: .* is a private, loopback or link-local address; add the host to cron\.webhookSsrfPolicy\.allowedHostnames/,
      );
    }
    expect(h.service.list().jobs).toEqual([]);
    const kept = await h.service.add({ name: "w", schedule: { kind: "every", every: "1h" }, sessionTarget: "isolated", payload: { kind: "agentTurn", message: "m" } });
    await expect(h.service.update(kept.id, { delivery: { mode: "webhook", to: "http://192.168.1.5/hook" } })).rejects.toThrow(/cron\.webhookSsrfPolicy\.allowedHostnames/);
    expect(h.service.get(kept.id)!.delivery).toEqual({ mode: "none" });
  });

  it("refuses to POST to a loopback webhook once cron.webhookSsrfPolicy no longer allows it, and says which key to set", async () => {
    const { target, h, job } = await runWebhookJob({ cron: { webhookSsrfPolicy: { dangerouslyAllowPrivateNetwork: true } } }, (h) => {
      h.config.cron!.webhookSsrfPolicy = {};
    });
    expect(target.requests).toEqual([]);
    expect(h.service.get(job.id)!.state).toMatchObject({
      lastStatus: "ok",
      lastDeliveryStatus: "not-delivered",
      lastDeliveryError: expect.stringMatching(/private, loopback or link-local.*cron.webhookSsrfPolicy.allowedHostnames/),
    });
  });

  it("takes an exact allowedHostnames entry onto a private address; blockedHostnames refuses first, *.domain its subdomains only", async () => {
    const allowed = await runWebhookJob({ cron: { webhookSsrfPolicy: { allowedHostnames: ["127.0.0.1"] } } });
    expect(allowed.target.requests).toHaveLength(1);
    const h = await cronHarness({
      cron: { webhookSsrfPolicy: { dangerouslyAllowPrivateNetwork: true, allowedHostnames: ["hooks.example.com"], blockedHostnames: ["127.0.0.1", "*.example.com"] } },
    });
    open.push(h);
    const job = { name: "w", schedule: { kind: "every", every: "1h" }, sessionTarget: "isolated", payload: { kind: "agentTurn", message: "m" } } as const;
    await expect(h.service.add({ ...job, delivery: { mode: "webhook", to: "http://127.0.0.1:9/hook" } })).rejects.toThrow(
      'delivery.to: 127.0.0.1 is blocked by cron.webhookSsrfPolicy.blockedHostnames ("127.0.0.1")',
    );
    await expect(h.service.add({ ...job, delivery: { mode: "webhook", to: "https://hooks.example.com/x" } })).rejects.toThrow(/\("\*\.example\.com"\)/);
    expect((await h.service.add({ ...job, delivery: { mode: "webhook", to: "https://example.com/x" } })).delivery).toMatchObject({ to: "https://example.com/x" });
  });

  it("POSTs the reply with the bearer token and the run id as Idempotency-Key", async () => {
    const { target, h, job } = await runWebhookJob({ cron: { webhookSsrfPolicy: { allowedHostnames: ["127.0.0.1"] }, webhookToken: "hook-secret" } });
    const [run] = h.service.runs({ jobId: job.id }).entries;
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]!.headers).toMatchObject({ authorization: "Bearer hook-secret", "idempotency-key": run!.runId });
    expect(target.requests[0]!.body).toMatchObject({ jobId: job.id, runId: run!.runId, status: "ok", text: "result" });
    expect(run!.deliveryStatus).toBe("delivered");
  });
});
