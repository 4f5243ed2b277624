import { Type } from "@sinclair/typebox";
import { integer, NonEmptyString, StringList, stringEnum, withExpected } from "./primitives.js";

/** A provider alias, as OpenClaw spells it: lower case, starting with a letter. */
export const SECRET_PROVIDER_ALIAS = /^[a-z][a-z0-9_-]{0,63}$/;

/**
 * `secrets.providers.<alias>`: where SecretRefs of one source are read. One object for the three
 * sources; which keys belong to which source is checked where the refs are resolved
 * (src/config/secrets/secret-providers.ts), so a misplaced key is named, not dropped.
 */
export const SecretProviderSchema = Type.Object({
  source: stringEnum(["env", "file", "exec"]),
  /** env: the only variable names this provider may read (`[]` reads none). */
  allowlist: Type.Optional(StringList),
  /** file: the file's path (`~` is the home directory). */
  path: Type.Optional(NonEmptyString),
  /** file: `json` (an object; ids are JSON pointers) or `singleValue` (the whole file; id `value`). */
  mode: Type.Optional(stringEnum(["json", "singleValue"])),
  /** file: the most bytes read (default 1 MiB). */
  maxBytes: Type.Optional(integer(1, 16 * 1024 * 1024)),
  /** exec: the resolver's absolute path; it runs directly, without a shell. */
  command: Type.Optional(NonEmptyString),
  args: Type.Optional(StringList),
  /** exec: variables given to the resolver; nothing else of the gateway's environment is, except `passEnv`. */
  env: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String())),
  /** exec: names of the gateway's own variables passed on to the resolver. */
  passEnv: Type.Optional(StringList),
  /** exec: how long the resolver may run (default 5000). */
  timeoutMs: Type.Optional(integer(1, 120_000)),
  /** exec: the most bytes of output (default 1 MiB). */
  maxOutputBytes: Type.Optional(integer(1, 16 * 1024 * 1024)),
  /** exec: the output must be the JSON protocol (default true); false lets one id take plain output. */
  jsonOnly: Type.Optional(Type.Boolean()),
  /** exec: directories the command must be in. */
  trustedDirs: Type.Optional(StringList),
});

const ProviderAlias = withExpected(Type.String({ pattern: SECRET_PROVIDER_ALIAS.source }), "a provider alias: a-z, 0-9, _ or -, starting with a letter");

/** `secrets`: the providers SecretRefs name, and each source's default provider. */
export const SecretsSchema = Type.Object({
  providers: Type.Optional(Type.Record(Type.String({ minLength: 1 }), SecretProviderSchema)),
  defaults: Type.Optional(
    Type.Object({
      env: Type.Optional(ProviderAlias),
      file: Type.Optional(ProviderAlias),
      exec: Type.Optional(ProviderAlias),
    }),
  ),
});
