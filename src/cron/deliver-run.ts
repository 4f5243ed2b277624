import http from "node:http";
import https from "node:https";
import { guardedLookup } from "../agents/tools/network-guard.js";
import { literalPrivateRefusal, PRIVATE_WEBHOOK_HINT, webhookAccess, type WebhookPolicy } from "./webhook-policy.js";
import { reportToSession } from "./report-to-session.js";
import { resolveAnnounceRoute, type RunJobDeps } from "./run-job.js";
import type { CronDeliveryStatus, CronJob, CronRunEntry } from "./types.js";

export interface DeliverDeps extends Pick<RunJobDeps, "channels" | "conversations"> {
  webhookToken?: string;
  /** `cron.webhookSsrfPolicy`: private and loopback addresses are refused unless it allows them, like web_fetch. */
  webhookPolicy: WebhookPolicy;
}

const WEBHOOK_TIMEOUT_MS = 10_000;
const WEBHOOK_ATTEMPTS = 3;

/**
 * Sends a finished run's reply where its job says. Announce goes through the channel delivery
 * ledger keyed by the run id, so a resend after a crash never posts it twice; a webhook POST
 * carries the run id as `Idempotency-Key` for the receiver to do the same.
 */
export async function deliverRun(job: CronJob, entry: CronRunEntry, text: string, deps: DeliverDeps): Promise<{ status: CronDeliveryStatus; error?: string }> {
  try {
    if (job.delivery.mode === "announce") {
      const route = resolveAnnounceRoute(job, deps);
      if ("error" in route) return { status: "not-delivered", error: route.error };
      await deps.channels()!.send(route, text, `cron:${entry.runId}`);
      return { status: "delivered" };
    }
    if (job.delivery.mode === "webhook") {
      await postWebhook(
        job.delivery.to,
        { jobId: job.id, jobName: job.name, runId: entry.runId, status: entry.status, runAtMs: entry.runAtMs, durationMs: entry.durationMs, text },
        entry.runId,
        deps,
      );
      return { status: "delivered" };
    }
    if (job.delivery.mode === "session") {
      await reportToSession(job, entry, text, deps);
      return { status: "delivered" };
    }
    return { status: "not-requested" };
  } catch (err) {
    return { status: "not-delivered", error: (err as Error).message };
  }
}

async function postWebhook(url: string, body: unknown, idempotencyKey: string, deps: DeliverDeps): Promise<void> {
  const target = new URL(url);
  const access = webhookAccess(deps.webhookPolicy, target.hostname);
  const refusal = access.kind === "blocked" ? access.reason : literalPrivateRefusal(access, target.hostname);
  if (refusal) throw new Error(`webhook ${target.origin}: ${refusal}`);
  const payload = Buffer.from(JSON.stringify(body));
  let lastError = "";
  for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS; attempt++) {
    try {
      const status = await post(target, payload, idempotencyKey, deps, access.kind === "private-allowed");
      if (status >= 200 && status < 300) return;
      lastError = `webhook ${target.origin} answered HTTP ${status}`;
      if (status < 500 && status !== 429) break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      lastError = code === "EPRIVATEADDRESS" ? `${(err as Error).message}; ${PRIVATE_WEBHOOK_HINT}` : `webhook ${target.origin}: ${(err as Error).message}`;
      if (code === "EPRIVATEADDRESS") break;
    }
  }
  throw new Error(lastError);
}

function post(url: URL, payload: Buffer, idempotencyKey: string, deps: DeliverDeps, privateAllowed: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "POST",
        // A fresh connection per request: no pooled socket skips the address check.
        agent: false,
        timeout: WEBHOOK_TIMEOUT_MS,
        headers: {
          "content-type": "application/json",
          "content-length": payload.length,
          "idempotency-key": idempotencyKey,
          ...(deps.webhookToken ? { authorization: `Bearer ${deps.webhookToken}` } : {}),
        },
        ...(privateAllowed ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer within ${WEBHOOK_TIMEOUT_MS / 1000}s`)));
    request.on("error", reject);
    request.end(payload);
  });
}
