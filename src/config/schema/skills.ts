import { Type } from "@sinclair/typebox";
import { NonEmptyString } from "./primitives.js";

/** Which discovered skills are offered (docs/skills.md#gating), over every agent's own `skills` list. */
export const SkillsSchema = Type.Object({
  /** When given, only these bundled skills are offered; other sources are not affected. */
  allowBundled: Type.Optional(Type.Array(NonEmptyString)),
  /** Per skill, by its name (or its `skillKey`): `enabled: false` turns it off. */
  entries: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Object({ enabled: Type.Optional(Type.Boolean()) }))),
});
