import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../fakes/slack-server.js";
import { type ChatSetup, startSlackChat } from "../helpers/chat-gateway.js";
import { ASK_ON_MISS, reportRunModel } from "../helpers/exec-approval-chat.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * `channels.slack.execApprovals`: a run in a Slack channel asks its exec approval in the
 * approver's DM and (target both) in the channel, each message rewritten with Block Kit buttons.
 * A press is the `/approve` line typed by whoever pressed it, answered on the press's
 * `response_url` to them only: the owner, not an approver here, is refused; the approver's press
 * runs the command, and both questions are rewritten to the outcome without buttons. Real gateway,
 * the real @slack/bolt over Socket Mode against the Slack fake, a real command.
 */
const OWNER = "U301";
const APPROVER = "U302";
const APPROVER_DM = "D302";
const CHANNEL = "C0APPROVE";

let setup: ChatSetup<FakeSlack> | undefined;
let slack: FakeSlack;

beforeAll(async () => {
  setup = await startSlackChat({
    owner: OWNER,
    responder: reportRunModel,
    settings: { allowFrom: [OWNER, APPROVER], execApprovals: { enabled: true, approvers: [`slack:${APPROVER}`], target: "both" } },
    config: ASK_ON_MISS,
  });
  slack = setup.platform;
});
afterAll(() => setup?.close());

type Update = { channel: string; ts: string; text: string; blocks: { type: string; elements?: { value: string; style?: string; text: { text: string } }[] }[] };
/** `chat.update` calls on message `ts`, their `blocks` parsed (the Web API client sends them as JSON text). */
const updates = (ts: string) =>
  slack.calls
    .filter((c) => c.method === "chat.update" && c.body.ts === ts)
    .map((c) => ({ ...c.body, blocks: typeof c.body.blocks === "string" ? JSON.parse(c.body.blocks) : c.body.blocks }) as unknown as Update);
const buttonsOf = (update: Update | undefined) => (update?.blocks ?? []).flatMap((b) => b.elements ?? []);
const promptTs = (channel: string) => slack.postedTs[slack.posted.findIndex((p) => p.channel === channel && p.text.includes("/approve "))];

async function press(channel: string, messageTs: string, user: string, value: string): Promise<{ text: string; response_type?: string }> {
  const { triggerId, envelopeId } = slack.pushButtonPress({ channel, user, messageTs, value });
  await waitUntil(() => slack.responses(triggerId).length > 0, 15_000, "the answer on the press's response_url");
  expect(slack.acks.has(envelopeId)).toBe(true);
  return slack.responses(triggerId)[0]!;
}

describe("Slack exec approvals", { timeout: 90_000 }, () => {
  it("asks in the approver's DM and the channel with buttons; the owner's press is refused to them only, the approver's runs it; both questions then show the outcome", async () => {
    slack.pushMessage({ channel: CHANNEL, user: OWNER, text: `<@${slack.botUserId}> please run the report`, appMention: true });
    await waitUntil(() => promptTs(CHANNEL) !== undefined && promptTs(APPROVER_DM) !== undefined, 30_000, "the two approval questions");
    const question = slack.posted.find((p) => p.channel === CHANNEL && p.text.includes("/approve "))!;
    expect(question.text).toContain("printf approved-output");
    const id = /\/approve (\S+) allow-once/.exec(question.text)![1]!;
    const [inChannel, inDm] = [promptTs(CHANNEL)!, promptTs(APPROVER_DM)!];

    // Each question is rewritten with its text as a section and a row of buttons.
    await waitUntil(() => buttonsOf(updates(inChannel)[0]).length === 3 && buttonsOf(updates(inDm)[0]).length === 3, 15_000, "the buttons");
    const withButtons = updates(inDm)[0]!;
    expect(withButtons.blocks[0]).toEqual({ type: "section", text: { type: "mrkdwn", text: withButtons.text } });
    expect(withButtons.text).toContain(`/approve ${id}`);
    expect(buttonsOf(withButtons).map((b) => [b.text.text, b.value, b.style])).toEqual([
      ["Allow once", `/approve ${id} allow-once`, "primary"],
      ["Allow always", `/approve ${id} allow-always`, undefined],
      ["Deny", `/approve ${id} deny`, "danger"],
    ]);

    const refusal = await press(CHANNEL, inChannel, OWNER, `/approve ${id} allow-once`);
    expect(refusal).toEqual({
      text: "/approve is for this chat's exec approvers only (channels.slack.execApprovals.approvers, else commands.ownerAllowFrom).",
      response_type: "ephemeral",
    });

    const approved = await press(APPROVER_DM, inDm, APPROVER, `/approve ${id} allow-once`);
    expect(approved).toEqual({ text: `Approval ${id}: allow-once.`, response_type: "ephemeral" });
    await waitUntil(() => slack.posted.some((p) => p.channel === CHANNEL && p.text === "Command result: ran"), 30_000, "the run's answer");

    for (const ts of [inChannel, inDm]) {
      await waitUntil(() => updates(ts).length === 2, 15_000, "the question's outcome");
      const outcome = updates(ts)[1]!;
      expect(outcome.text).toContain("✅ Allowed once.");
      expect(outcome.blocks).toEqual([]);
    }
  });
});
