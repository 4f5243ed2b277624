import { REASONING_LEVELS } from "../../agents/reasoning-visibility.js";
import { THINKING_LEVELS, VERBOSE_LEVELS } from "../../agents/session-controls.js";

/** The levels a message may set for its own turn, as OpenClaw's inline directives. */
export interface InlineLevels {
  thinkingLevel?: string;
  verboseLevel?: string;
  reasoningLevel?: string;
}

export interface InlineDirectives {
  /** The message without its directives (spaces around them folded). */
  text: string;
  levels: InlineLevels;
  /** Directives found, with or without a valid level. */
  found: number;
}

/** `/name` at the start or after whitespace, followed by the end, whitespace or `:`. */
const directive = (names: string[]) => new RegExp(`(?<!\\S)/(?:${names.join("|")})(?=$|\\s|:)`, "i");

const DIRECTIVES: { field: keyof InlineLevels; pattern: RegExp; levels: readonly string[] }[] = [
  { field: "thinkingLevel", pattern: directive(["thinking", "think", "t"]), levels: THINKING_LEVELS },
  { field: "verboseLevel", pattern: directive(["verbose", "v"]), levels: VERBOSE_LEVELS },
  { field: "reasoningLevel", pattern: directive(["reasoning", "reason"]), levels: REASONING_LEVELS },
];

/**
 * `/think high`, `/t:low`, `/verbose full`, `/reasoning on` anywhere in a message (at its start or
 * after a space, as a word of its own): each is taken out of the text, and a level the directive
 * knows applies to this message's turn only. A directive followed by a word that is not one of its
 * levels is taken out alone, the word stays, unless that word ends the message (then it is the
 * directive's unknown level). The first of each kind counts; later ones are taken out too. A
 * message that is nothing but directives is left to the chat commands (they set the session's
 * level, or say which levels there are).
 */
export function extractInlineDirectives(message: string): InlineDirectives {
  let text = message;
  const levels: InlineLevels = {};
  let found = 0;
  // A message without a slash has no directive: the common case costs one indexOf.
  if (!message.includes("/")) return { text: message, levels, found };
  for (const { field, pattern, levels: known } of DIRECTIVES) {
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      found += 1;
      let end = match.index + match[0].length;
      if (text[end] === ":") end += 1;
      const word = /^\s*([A-Za-z-]+)/.exec(text.slice(end));
      const level = word?.[1]?.toLowerCase();
      if (word && level && known.includes(level)) {
        end += word[0].length;
        levels[field] ??= level;
      } else if (word && !text.slice(end + word[0].length).trim()) {
        // The last word is the directive's (an unknown level): the command answers with the levels.
        end += word[0].length;
      }
      text = `${text.slice(0, match.index)} ${text.slice(end)}`;
    }
  }
  return { text: found > 0 ? text.replace(/[ \t]{2,}/g, " ").trim() : message, levels, found };
}
