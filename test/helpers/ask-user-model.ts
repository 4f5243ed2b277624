import type { FakeReply, RecordedRequest } from "../fakes/model-server.js";
import { lastUserText } from "./reliability.js";

/** One single-choice question: the chat shows it with a button per option. */
export const TARGET_QUESTION = {
  id: "deploy_target",
  header: "Target",
  question: "Where should I deploy?",
  options: [{ label: "Staging (Recommended)", description: "safe" }, { label: "Production" }],
};

export const TWO_QUESTIONS = [
  { id: "color", header: "Color", question: "Which colour?", options: [{ label: "Red" }, { label: "Blue" }] },
  { id: "size", header: "Size", question: "Which size?", options: [{ label: "Small" }, { label: "Large" }] },
];

/**
 * A model that calls ask_user when told to "pick a target" (TARGET_QUESTION) or "pick two"
 * (TWO_QUESTIONS), and answers `Result: <the result's first lines>` once the tool's result is back.
 */
export function askingModel(req: RecordedRequest): FakeReply {
  const last = req.body.messages?.at(-1);
  if (last?.role === "tool") return { text: `Result: ${String(last.content).split("\n\n")[0]!.replaceAll("\n", " | ")}` };
  const text = lastUserText(req);
  if (text.includes("pick a target")) return { toolCalls: [{ name: "ask_user", arguments: { questions: [TARGET_QUESTION] } }] };
  if (text.includes("pick two")) return { toolCalls: [{ name: "ask_user", arguments: { questions: TWO_QUESTIONS } }] };
  return { text: "ok" };
}
