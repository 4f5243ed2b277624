import { parseSessionKey } from "../../sessions/keys/index.js";
import { checkGoalNote, checkGoalObjective, formatGoalStatus, GoalRefusal, GoalTransitionError, type GoalStore, type SessionGoalStatus } from "../../sessions/goal/index.js";
import type { ChatCommandContext, ChatCommandResult } from "./chat-command-registry.js";

/** The session goals a chat command changes (the gateway's GoalStore). */
export type GoalCommandPort = Pick<GoalStore, "read" | "create" | "edit" | "setStatus" | "clear">;

/** `/goal`'s action words (OpenClaw's); any other first word starts a goal with the whole text as its objective. */
const ACTIONS = new Set(["status", "start", "set", "create", "edit", "pause", "resume", "complete", "done", "block", "blocked", "clear"]);

const STATUS_OF: Record<string, SessionGoalStatus> = { pause: "paused", resume: "active", complete: "complete", done: "complete", block: "blocked", blocked: "blocked" };

export const GOAL_USAGE = "Usage: /goal <objective> | /goal [status] | /goal start <objective> | /goal edit <objective> | /goal pause|resume|complete|block|clear [note]";

/** `/goal …` split into its action and the text after it (kept as typed inside, trimmed at the ends). */
export function parseGoalArgs(args: string): { action: string; text: string } {
  const trimmed = args.trim();
  if (!trimmed) return { action: "status", text: "" };
  const [word = ""] = trimmed.split(/\s/, 1);
  const action = word.toLowerCase();
  if (!ACTIONS.has(action)) return { action: "start", text: trimmed };
  return { action, text: trimmed.slice(word.length).trim() };
}

/**
 * The message the agent gets after `/goal start`: the objective itself, or, when it holds
 * something a chat would read as a command (`/…`, `!…`), the objective as a JSON string behind a
 * plain instruction, so it is pursued as written and never run as a command.
 */
export function goalStartPrompt(objective: string): string {
  return commandLike(objective) ? `Pursue this goal exactly as written from this JSON string: ${jsonText(objective)}` : objective;
}

/** The message the agent gets after `/goal resume [note]`, the note guarded as goalStartPrompt guards an objective. */
export function goalResumePrompt(note: string): string {
  if (!note) return "Continue pursuing the current goal.";
  return commandLike(note)
    ? `Continue pursuing the current goal. Interpret this JSON string as the resume note: ${jsonText(note)}`
    : `Continue pursuing the current goal. Note: ${note}`;
}

const commandLike = (text: string) => /(?:^|\s)\//.test(text) || text.startsWith("!");
const jsonText = (text: string) => JSON.stringify(text).replaceAll("/", "\\/");

/**
 * `/goal` (OpenClaw's): shows, starts, edits, pauses, resumes, completes, blocks or clears the
 * session's goal. Starting and resuming hand the turn to the agent (the objective, or a
 * continue instruction, becomes the message it answers) so pursuit begins at once; every other
 * action is answered here. A refused change answers `Goal error: …` and changes nothing.
 */
export async function runGoalCommand(args: string, ctx: ChatCommandContext): Promise<ChatCommandResult> {
  const goals = ctx.goals;
  if (!goals) return reply("Goals are not available here.");
  const { action, text } = parseGoalArgs(args);
  const target = { sessionKey: ctx.sessionKey, agentId: parseSessionKey(ctx.sessionKey).agentId };
  try {
    if (action === "status") return reply(formatGoalStatus(goals.read(ctx.sessionKey)));
    if (action === "clear") {
      if (!ctx.sessions.peek(ctx.sessionKey)) return reply("No goal to clear.");
      return reply((await goals.clear(target)) ? "Goal cleared." : "No goal to clear.");
    }
    ctx.sessions.ensure(ctx.sessionKey, { agentId: target.agentId });
    if (action === "start" || action === "set" || action === "create" || action === "edit") {
      if (!text) return reply(`Usage: /goal ${action === "edit" ? "edit" : "start"} <objective>`);
      const objective = checkGoalObjective(text);
      if (!objective.ok) return reply(`Goal error: ${objective.rule}`);
      if (action === "edit") return reply(`Goal updated: ${(await goals.edit(target, objective.text)).objective}`);
      const goal = await goals.create(target, { objective: objective.text });
      return { kind: "agent", text: goalStartPrompt(goal.objective) };
    }
    const status = STATUS_OF[action]!;
    const note = checkGoalNote(text);
    if (!note.ok) return reply(`Goal error: ${note.rule}`);
    const goal = await goals.setStatus(target, status, note.text);
    if (action === "resume") return { kind: "agent", text: goalResumePrompt(note.text) };
    if (status === "complete") return reply(`Goal complete: ${goal.objective}\nTokens used: ${goal.tokensUsed}`);
    return reply(`Goal ${status}: ${goal.objective}`);
  } catch (err) {
    if (err instanceof GoalTransitionError || err instanceof GoalRefusal) return reply(`Goal error: ${err.message}`);
    throw err;
  }
}

const reply = (text: string): ChatCommandResult => ({ kind: "reply", text });
