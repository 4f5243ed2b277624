import { describe, expect, it } from "vitest";
import { PendingSystemEvents } from "../../../src/cron/heartbeat/pending-events.js";
import { runJob } from "../../../src/cron/run-job.js";
import type { CronJob } from "../../../src/cron/types.js";
import { FakeChannels, tempStateDir } from "./cron-harness.js";
import { FakeCronConversations } from "./fake-cron-conversations.js";

const job: CronJob = {
  id: "job-1",
  name: "reminder",
  enabled: true,
  createdAtMs: 0,
  updatedAtMs: 0,
  schedule: { kind: "every", everyMs: 86_400_000 },
  sessionTarget: "main",
  wakeMode: "next-heartbeat",
  payload: { kind: "systemEvent", text: "water the plants" },
  delivery: { mode: "none" },
  state: {},
};

describe("runJob with wakeMode next-heartbeat", () => {
  it("queues its event under the run's key: the same run again queues nothing twice, another run does", async () => {
    const pending = new PendingSystemEvents(tempStateDir());
    const conversations = new FakeCronConversations();
    const deps = {
      conversations,
      channels: () => new FakeChannels(),
      queueForHeartbeat: (agentId: string, _sessionKey: string, text: string, key: string) => {
        pending.add(agentId, text, { key });
        return true;
      },
    };
    expect(await runJob(job, "run-1", deps)).toMatchObject({ status: "ok" });
    expect(await runJob(job, "run-1", deps)).toMatchObject({ status: "ok" });
    expect(pending.forAgent("main").map((e) => e.text)).toEqual(["[Scheduled: reminder] water the plants"]);
    await runJob(job, "run-2", deps);
    expect(pending.forAgent("main")).toHaveLength(2);
    expect(conversations.submitted).toEqual([]);
    pending.close();
  });
});
