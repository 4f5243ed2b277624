import { Type } from "@sinclair/typebox";
import { integer, StringList, stringEnum } from "./primitives.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export const LoggingSchema = Type.Object({
  level: Type.Optional(stringEnum(LOG_LEVELS)),
  file: Type.Optional(Type.String()),
  maxFileBytes: Type.Optional(integer(0)),
  redactPatterns: Type.Optional(StringList),
});
