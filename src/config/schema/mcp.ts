import { Type } from "@sinclair/typebox";
import { integer, NonEmptyString, StringList, stringEnum } from "./primitives.js";

/**
 * `mcp.servers.<name>`: an MCP server whose tools the agents get, started as a child process
 * (`command`, `args`, `env`, `cwd`) or reached over HTTP (`url`, `transport`, `headers`).
 * OpenClaw's OAuth, TLS-client and Codex keys are not supported (unknown keys).
 */
export const McpServerSchema = Type.Object({
  command: Type.Optional(NonEmptyString),
  args: Type.Optional(StringList),
  /** Variables for the child on top of a minimal environment (PATH, HOME, …); the gateway's own are not passed. */
  env: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String())),
  cwd: Type.Optional(NonEmptyString),
  url: Type.Optional(Type.String({ pattern: "^https?://" })),
  transport: Type.Optional(stringEnum(["streamable-http", "sse"])),
  headers: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String())),
  enabled: Type.Optional(Type.Boolean()),
  requestTimeoutMs: Type.Optional(integer(1, 3_600_000)),
  connectionTimeoutMs: Type.Optional(integer(1, 600_000)),
  /** MCP tool names or simple `*` globs: `include` keeps only those, `exclude` hides those. */
  toolFilter: Type.Optional(Type.Object({ include: Type.Optional(StringList), exclude: Type.Optional(StringList) })),
});

export const McpSchema = Type.Object({
  servers: Type.Optional(Type.Record(Type.String({ minLength: 1 }), McpServerSchema)),
});
