import { Type } from "@sinclair/typebox";
import { integer } from "./primitives.js";

/** `env.*`: variables the gateway sets for itself where the process has none (src/config/env-sources.ts). */
export const EnvSchema = Type.Object({
  /** Variable name → value; never overrides one the process already has. */
  /** Names are checked in cross-field-rules.ts (a record's key pattern is not enforced by the schema walk). */
  vars: Type.Optional(Type.Record(Type.String(), Type.String())),
  /** Take the variables the user's login shell sets (`$SHELL -l`), once at start. */
  shellEnv: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()), timeoutMs: Type.Optional(integer(100, 120_000)) })),
});
