import { Type } from "@sinclair/typebox";
import { NonEmptyString } from "./primitives.js";

/** `skills.entries.<key>`: OpenClaw's per-skill settings. */
const SkillEntrySchema = Type.Object({
  /** `false` turns the skill off. */
  enabled: Type.Optional(Type.Boolean()),
  /** The value of the variable the skill names as its `primaryEnv` (docs/skills.md#credentials-for-a-skill). */
  apiKey: Type.Optional(NonEmptyString),
  /** Variables the skill's commands get (names checked by the cross-field rules: a shell variable name). */
  env: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String())),
});

/** Which discovered skills are offered (docs/skills.md#gating), over every agent's own `skills` list. */
export const SkillsSchema = Type.Object({
  /** When given, only these bundled skills are offered; other sources are not affected. */
  allowBundled: Type.Optional(Type.Array(NonEmptyString)),
  /** Per skill, by its name (or its `skillKey`). */
  entries: Type.Optional(Type.Record(Type.String({ minLength: 1 }), SkillEntrySchema)),
  load: Type.Optional(
    Type.Object({
      /** More folders of skills, below every other place; `~/` is the home directory. */
      extraDirs: Type.Optional(Type.Array(NonEmptyString)),
      /** Real folders a symlinked skill may resolve into from any skills folder; keep it narrow. */
      allowSymlinkTargets: Type.Optional(Type.Array(NonEmptyString)),
    }),
  ),
});
