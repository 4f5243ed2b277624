/**
 * Why a transcript message cannot be read back, or undefined when it can. Only the roles a model
 * sees (`user`, `assistant`, `toolResult`) have a checked shape: every later turn sends them to a
 * provider, so one malformed line (content that is a number, a block without its text) would
 * break the session for good. Other roles are application records and pass as they are.
 */
export function messageProblem(message: Record<string, unknown>): string | undefined {
  switch (message.role) {
    case "user":
      if (typeof message.content === "string") return undefined;
      return blocksProblem(message.content, USER_BLOCKS, "user");
    case "assistant":
      return blocksProblem(message.content, ASSISTANT_BLOCKS, "assistant");
    case "toolResult":
      if (typeof message.toolCallId !== "string") return "toolResult message without a toolCallId";
      if (typeof message.content === "string") return undefined;
      return blocksProblem(message.content, USER_BLOCKS, "toolResult");
    default:
      return undefined;
  }
}

type BlockCheck = (block: Record<string, unknown>) => boolean;

const text: BlockCheck = (b) => typeof b.text === "string";
const image: BlockCheck = (b) => typeof b.data === "string" && typeof b.mimeType === "string";
const thinking: BlockCheck = (b) => typeof b.thinking === "string";
const toolCall: BlockCheck = (b) => typeof b.id === "string" && typeof b.name === "string" && isRecord(b.arguments);

const USER_BLOCKS: Record<string, BlockCheck> = { text, image };
const ASSISTANT_BLOCKS: Record<string, BlockCheck> = { text, thinking, toolCall };

function blocksProblem(content: unknown, allowed: Record<string, BlockCheck>, role: string): string | undefined {
  if (!Array.isArray(content)) return `${role} message whose content is neither text nor a list of blocks`;
  for (const block of content) {
    if (!isRecord(block) || typeof block.type !== "string") return `${role} message with a content block that has no type`;
    const check = allowed[block.type];
    if (!check) return `${role} message with an unknown "${block.type}" block`;
    if (!check(block)) return `${role} message with a malformed "${block.type}" block`;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
