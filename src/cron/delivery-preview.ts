import { resolveAnnounceRoute, type RunJobDeps } from "./run-job.js";
import type { CronJob } from "./types.js";

/** One line of where a job's result goes, as `openclaw cron list` shows it in its Delivery column (`label (detail)`). */
export interface CronDeliveryPreview {
  label: string;
  detail: string;
}

/**
 * Where `job`'s result would go if it ran now, worded as OpenClaw words it: `not requested`,
 * `webhook:<url>`, or `announce -> <channel>:<chat>` with `explicit` or `resolved from last, main
 * session`; a route that cannot be reached names why (`last -> no route, will fail-closed: …`).
 * Nothing is sent.
 */
export function cronDeliveryPreview(job: CronJob, deps: Pick<RunJobDeps, "channels" | "conversations">): CronDeliveryPreview {
  const delivery = job.delivery;
  switch (delivery.mode) {
    case "none":
      return { label: "not requested", detail: "not requested" };
    case "webhook":
      return { label: `webhook:${delivery.to}`, detail: "webhook" };
    case "session":
      return { label: `session -> ${delivery.to}`, detail: "a task_completion event in that session" };
    case "announce": {
      const fromLast = delivery.channel === undefined || delivery.channel === "last";
      const route = resolveAnnounceRoute(job, deps);
      if ("error" in route) {
        const requested = fromLast ? "last" : delivery.to ? `${delivery.channel}:${delivery.to}` : delivery.channel!;
        return { label: `announce -> ${requested}`, detail: fromLast ? `last -> no route, will fail-closed: ${route.error}` : route.error };
      }
      return { label: `announce -> ${route.channel}:${route.to}`, detail: fromLast ? "resolved from last, main session" : "explicit" };
    }
  }
}
