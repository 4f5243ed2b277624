/** `channels.discord.mentionAliases`: handles (without the @) and the Discord user ids they name. */
export type MentionAliases = ReadonlyMap<string, string>;

/** What goes out: the text with known `@Handle`s as `<@id>` mentions, and the ids Discord may ping. */
export interface AliasedText {
  text: string;
  users: string[];
}

// Fenced blocks and inline code spans: a handle written inside them is code, not a mention.
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
// An @ not glued to a word (an e-mail) or to `<@` markup, then a handle.
const HANDLE = /(?<![\w<@])@([A-Za-z0-9_.-]{1,32})(?![A-Za-z0-9_-])/g;

/** The aliases from the account's config, keyed case-insensitively. */
export function readMentionAliases(value: unknown): MentionAliases {
  const aliases = new Map<string, string>();
  if (value && typeof value === "object") for (const [handle, id] of Object.entries(value)) if (typeof id === "string") aliases.set(handle.toLowerCase(), id);
  return aliases;
}

/**
 * `@SupportLead` becomes `<@123…>` for each handle the aliases know (any case); unknown handles,
 * `@everyone`, `@here` and anything inside Markdown code stay as written. A handle's trailing
 * dots are punctuation (`ask @OpsLead.`), not part of it.
 */
export function applyMentionAliases(text: string, aliases: MentionAliases): AliasedText {
  if (aliases.size === 0 || !text.includes("@")) return { text, users: [] };
  const users = new Set<string>();
  const replaceIn = (prose: string) =>
    prose.replace(HANDLE, (match, raw: string) => {
      const handle = raw.replace(/\.+$/, "");
      const id = aliases.get(handle.toLowerCase());
      if (!id) return match;
      users.add(id);
      return `<@${id}>${raw.slice(handle.length)}`;
    });
  let out = "";
  let from = 0;
  for (const code of text.matchAll(CODE)) {
    out += replaceIn(text.slice(from, code.index)) + code[0];
    from = code.index + code[0].length;
  }
  out += replaceIn(text.slice(from));
  return { text: out, users: [...users] };
}
