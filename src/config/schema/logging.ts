import { Type } from "@sinclair/typebox";
import { integer, StringList, stringEnum } from "./primitives.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export const LoggingSchema = Type.Object({
  level: Type.Optional(stringEnum(LOG_LEVELS)),
  /** The console's own level (default: `level`). */
  consoleLevel: Type.Optional(stringEnum(LOG_LEVELS)),
  /** pretty one-liners or JSON lines on the console (default: pretty on a terminal, JSON otherwise). */
  consoleStyle: Type.Optional(stringEnum(["pretty", "json"])),
  file: Type.Optional(Type.String()),
  maxFileBytes: Type.Optional(integer(0)),
  redactPatterns: Type.Optional(StringList),
});
