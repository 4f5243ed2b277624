import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fakeSummaryReply, isSummaryRequest, lastUserText, type RecordedRequest } from "../fakes/model-server.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { makeTempDir } from "../helpers/gateway-process.js";
import type { Frame } from "../helpers/ws-client.js";

/**
 * `compaction.postCompactionSections` through the real gateway: after `sessions.compact`, the
 * named AGENTS.md sections (cut at `postCompactionMaxChars`, today's date filled in) go in front
 * of the session's next message as a System notice, once; a heading inside a code fence does not
 * count, and a section that is not named stays out.
 */
const LONG_REPLY = "Long answer. ".repeat(920);
const workspace = makeTempDir("openclaw-post-compaction-ws-");
fs.writeFileSync(
  path.join(workspace, "AGENTS.md"),
  [
    "# Agent rules",
    "",
    "## Session Startup",
    "Read memory/YYYY-MM-DD.md before anything else.",
    "```",
    "## Red Lines (inside a fence: not a heading)",
    "```",
    "### Details",
    "Check the calendar.",
    "",
    "## Tone",
    "Be brief; this section is not named.",
    "",
    "## Red Lines",
    `Never delete files without asking. ${"x".repeat(400)}`,
  ].join("\n"),
);

const fakes = useFakeModelGateway({
  operator: true,
  configure: (config) => {
    config.models.providers.fake.models = [{ id: "fake-model", contextWindow: 20_000, maxTokens: 1024 }];
    config.agents.defaults.workspace = workspace;
    config.agents.defaults.userTimezone = "UTC";
    config.agents.defaults.contextLimits = { postCompactionMaxChars: 200 };
    config.agents.defaults.compaction = { postCompactionSections: ["Session Startup", "Red Lines"], timeoutSeconds: 5, memoryFlush: { enabled: false } };
  },
});

async function turn(session: string, text: string): Promise<Frame> {
  const key = randomUUID();
  const ack = await fakes.sock.request("chat.send", { sessionKey: session, message: text, idempotencyKey: key });
  expect(ack.ok, JSON.stringify(ack.error)).toBe(true);
  return fakes.sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && ["final", "error"].includes(f.payload.state), 15_000);
}

const conversationRequests = () => fakes.model.requests.filter((r) => r.path.endsWith("/chat/completions") && !isSummaryRequest(r));

describe("post-compaction refresh", () => {
  it("the next message after a compaction carries the named AGENTS.md sections, once", async () => {
    const session = "agent:main:refresh";
    fakes.model.setResponder((request: RecordedRequest) => (isSummaryRequest(request) ? fakeSummaryReply(request) : { text: LONG_REPLY }));
    for (let i = 1; i <= 4; i += 1) await turn(session, `Point ${i}`);
    expect(lastUserText(conversationRequests().at(-1)!)).toBe("Point 4");
    const done = await fakes.sock.request("sessions.compact", { key: session }, 15_000);
    expect(done.payload).toMatchObject({ compacted: true });

    await turn(session, "What now?");
    const prompt = lastUserText(conversationRequests().at(-1)!);
    const today = new Date().toISOString().slice(0, 10);
    expect(prompt).toMatch(/^System: \[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} GMT\] \[Post-compaction context refresh\]\n/);
    expect(prompt).toContain(
      "System: Run your Session Startup sequence".replace(
        "Run",
        "Session was just compacted. The conversation summary above is a hint, NOT a substitute for your startup sequence. Run",
      ),
    );
    expect(prompt).toContain("System: Critical rules from AGENTS.md:");
    expect(prompt).toContain(`System: Read memory/${today}.md before anything else.`);
    expect(prompt).toContain("System: ## Red Lines (inside a fence: not a heading)");
    expect(prompt).toContain("System: Check the calendar.");
    expect(prompt).not.toContain("Be brief");
    // Both sections, cut at 200 characters.
    expect(prompt).toContain("System: ## Red Lines\nSystem: Never delete files without asking.");
    expect(prompt).toContain("System: ...[truncated]...");
    expect(prompt).not.toContain("xxxxxxxxxx");
    expect(prompt).toMatch(
      /System: Current time: \d{4}-\d{2}-\d{2} \d{2}:\d{2} \w+, time zone UTC \(UTC\+00:00\)\nSystem: Reference UTC: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n\nWhat now\?$/,
    );

    await turn(session, "And then?");
    expect(lastUserText(conversationRequests().at(-1)!)).toBe("And then?");
  });
});
