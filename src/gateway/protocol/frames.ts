import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { CLIENT_IDS, CLIENT_MODES } from "./constants.js";

/** Frame and connect schemas (see docs/protocol.md). Params objects reject unknown fields. */
const NonEmpty = Type.String({ minLength: 1 });

export const RequestFrameSchema = Type.Object(
  {
    type: Type.Literal("req"),
    id: NonEmpty,
    method: NonEmpty,
    params: Type.Optional(Type.Unknown()),
    traceparent: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type RequestFrame = Static<typeof RequestFrameSchema>;

export const CancelFrameSchema = Type.Object({ type: Type.Literal("cancel"), id: NonEmpty }, { additionalProperties: false });

const ClientInfoSchema = Type.Object(
  {
    id: Type.Union(CLIENT_IDS.map((id) => Type.Literal(id))),
    displayName: Type.Optional(Type.String()),
    version: NonEmpty,
    platform: NonEmpty,
    deviceFamily: Type.Optional(Type.String()),
    modelIdentifier: Type.Optional(Type.String()),
    mode: Type.Union(CLIENT_MODES.map((m) => Type.Literal(m))),
    instanceId: Type.Optional(Type.String()),
    buildId: Type.Optional(Type.String()),
    timeZone: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const ConnectAuthSchema = Type.Object(
  {
    token: Type.Optional(Type.String({ maxLength: 4096 })),
    password: Type.Optional(Type.String({ maxLength: 4096 })),
    deviceToken: Type.Optional(Type.String({ maxLength: 256 })),
    bootstrapToken: Type.Optional(Type.String({ maxLength: 256 })),
    approvalRuntimeToken: Type.Optional(Type.String({ maxLength: 2048 })),
    agentRuntimeIdentityToken: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

export const DeviceProofSchema = Type.Object(
  {
    id: NonEmpty,
    publicKey: NonEmpty,
    signature: NonEmpty,
    signedAt: Type.Integer({ minimum: 0 }),
    nonce: NonEmpty,
  },
  { additionalProperties: false },
);
export type DeviceProof = Static<typeof DeviceProofSchema>;

export const ConnectParamsSchema = Type.Object(
  {
    minProtocol: Type.Integer({ minimum: 1 }),
    maxProtocol: Type.Integer({ minimum: 1 }),
    client: ClientInfoSchema,
    role: Type.Optional(Type.String()),
    scopes: Type.Optional(Type.Array(Type.String())),
    caps: Type.Optional(Type.Array(Type.String())),
    commands: Type.Optional(Type.Array(Type.String())),
    permissions: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
    pathEnv: Type.Optional(Type.String()),
    auth: Type.Optional(ConnectAuthSchema),
    device: Type.Optional(DeviceProofSchema),
    locale: Type.Optional(Type.String()),
    userAgent: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type ConnectParams = Static<typeof ConnectParamsSchema>;

/** A compiled validator that reports the first problem as `path: reason`. */
export interface Validator<T> {
  check(value: unknown): value is T;
  firstError(value: unknown): string;
}

/**
 * Compiled on first use, not when the module loads: compiling costs milliseconds the gateway
 * would otherwise spend before it can answer, and a gateway with only HTTP clients never needs them.
 */
export function compileValidator<T extends TSchema>(schema: T): Validator<Static<T>> {
  let compiled: TypeCheck<T> | undefined;
  const checker = () => (compiled ??= TypeCompiler.Compile(schema));
  return {
    check: (value: unknown): value is Static<T> => checker().Check(value),
    firstError(value: unknown): string {
      const first = checker().Errors(value).First();
      if (!first) return "invalid value";
      return describeError(first.path, first.message, first.schema);
    },
  };
}

function describeError(pointer: string, message: string, schema: TSchema): string {
  const where = pointer ? `at ${pointer.replace(/^\//, "").replaceAll("/", ".")}` : "at root";
  // typebox reports an unexpected property on the parent object; name the property itself.
  if (message.startsWith("Unexpected property")) {
    return `${where}: unexpected property`;
  }
  const anyOf = (schema as unknown as { anyOf?: { const?: unknown }[] }).anyOf;
  if (anyOf) {
    const options = anyOf.map((s) => s.const).filter((c) => c !== undefined);
    if (options.length > 0) return `${where}: must be one of ${options.map((o) => JSON.stringify(o)).join(", ")}`;
  }
  return `${where}: ${message.toLowerCase()}`;
}

export const requestFrameValidator = compileValidator(RequestFrameSchema);
export const cancelFrameValidator = compileValidator(CancelFrameSchema);
export const connectParamsValidator = compileValidator(ConnectParamsSchema);
