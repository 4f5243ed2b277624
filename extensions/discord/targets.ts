/** A user-written Discord target: a channel to post in, or a user whose DM channel must be opened first. */
export type DiscordTarget = { kind: "channel"; id: string } | { kind: "user"; id: string };

const SNOWFLAKE = String.raw`(\d{1,20})`;
const CHANNEL_FORMS = [new RegExp(`^channel:${SNOWFLAKE}$`, "i"), new RegExp(`^<#${SNOWFLAKE}>$`), new RegExp(`^${SNOWFLAKE}$`)];
const USER_FORMS = [new RegExp(`^user:${SNOWFLAKE}$`, "i"), new RegExp(`^<@!?${SNOWFLAKE}>$`)];

/**
 * `channel:<id>`, `<#id>` or a bare id → a channel; `user:<id>`, `<@id>` or `<@!id>` → a user's DM.
 * An optional `discord:` prefix is ignored.
 */
export function parseDiscordTarget(raw: string): DiscordTarget {
  const text = raw.trim().replace(/^discord:/i, "");
  for (const form of CHANNEL_FORMS) {
    const match = form.exec(text);
    if (match) return { kind: "channel", id: match[1]! };
  }
  for (const form of USER_FORMS) {
    const match = form.exec(text);
    if (match) return { kind: "user", id: match[1]! };
  }
  throw new Error(`discord: cannot read target "${raw}"; use channel:<id>, user:<id>, <@id> or a numeric channel id`);
}
