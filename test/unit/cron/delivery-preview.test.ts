import { describe, expect, it } from "vitest";
import { cronDeliveryPreview } from "../../../src/cron/delivery-preview.js";
import type { CronDelivery, CronJob } from "../../../src/cron/types.js";
import { FakeChannels } from "./cron-harness.js";
import { FakeCronConversations } from "./fake-cron-conversations.js";

const jobWith = (delivery: CronDelivery) => ({ id: "j1", agentId: "main", delivery }) as unknown as CronJob;

describe("cronDeliveryPreview", () => {
  it("words each delivery as OpenClaw's cron list does, and names why a route cannot be reached", () => {
    const channels = new FakeChannels();
    const deps = { channels: () => channels, conversations: new FakeCronConversations() };
    expect(cronDeliveryPreview(jobWith({ mode: "none" }), deps)).toEqual({ label: "not requested", detail: "not requested" });
    expect(cronDeliveryPreview(jobWith({ mode: "webhook", to: "https://x/y" }), deps)).toEqual({ label: "webhook:https://x/y", detail: "webhook" });
    expect(cronDeliveryPreview(jobWith({ mode: "session", to: "agent:main:ops" }), deps)).toEqual({
      label: "session -> agent:main:ops",
      detail: "a task_completion event in that session",
    });
    expect(cronDeliveryPreview(jobWith({ mode: "announce", channel: "telegram", to: "42" }), deps)).toEqual({ label: "announce -> telegram:42", detail: "explicit" });
    // A channel the config no longer has (the job was saved before it was removed).
    expect(cronDeliveryPreview(jobWith({ mode: "announce", channel: "discord", to: "7" }), deps)).toEqual({
      label: "announce -> discord:7",
      detail: "channel discord is not configured (add channels.discord)",
    });
    expect(cronDeliveryPreview(jobWith({ mode: "announce" }), deps)).toEqual({
      label: "announce -> last",
      detail: expect.stringMatching(/^last -> no route, will fail-closed: delivery channel "last": the main session \(.*\) has no chat yet/),
    });
    expect(cronDeliveryPreview(jobWith({ mode: "announce" }), { ...deps, channels: () => undefined })).toEqual({
      label: "announce -> last",
      detail: expect.stringContaining("no chat channel is configured on this gateway"),
    });
  });
});
