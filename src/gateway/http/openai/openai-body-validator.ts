import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { ValueError } from "@sinclair/typebox/errors";
import type { FastifySchemaCompiler } from "fastify";
import { OpenAiRequestError } from "./openai-errors.js";

/**
 * Fastify's validator compiler for the `/v1` routes: the route's TypeBox schema is compiled by
 * TypeBox itself (no ajv, no type coercion: `"true"` is not a boolean), and a failing body becomes
 * an `OpenAiRequestError` carrying the failing field's `errorMessage` and its path as `param`,
 * which the scope's error handler answers in OpenAI's shape.
 */
export const openAiBodyValidator: FastifySchemaCompiler<unknown> = ({ schema }) => {
  // Only ever given the TypeBox schemas of the routes that install it.
  const check = TypeCompiler.Compile(schema as TSchema);
  return (value) => {
    if (check.Check(value)) return { value };
    const first = check.Errors(value).First();
    return { error: first ? requestError(deepest(first)) : new OpenAiRequestError("Invalid request body.") };
  };
};

/**
 * The error to report. A union whose every branch fails at its own level ("a string or an
 * array") is reported as the union; when one branch got further into the value (an array whose
 * third part is bad), that branch's inner error is the useful one.
 */
function deepest(error: ValueError): ValueError {
  let best = error;
  for (const branch of error.errors) {
    const inner = branch.First();
    if (!inner) continue;
    const candidate = deepest(inner);
    if (candidate.path.length > best.path.length) best = candidate;
  }
  return best;
}

function requestError(error: ValueError): OpenAiRequestError {
  const param = toParam(error.path);
  const parent = toParam(error.path.slice(0, error.path.lastIndexOf("/")));
  const template = typeof error.schema.errorMessage === "string" ? error.schema.errorMessage : `{param}: ${error.message}.`;
  const message = template.replaceAll("{param}", param).replaceAll("{parent}", parent);
  const reported = template.includes("{parent}") ? parent : param;
  return new OpenAiRequestError(message, reported || undefined);
}

/** `/messages/0/content/1` → `messages[0].content[1]`. */
function toParam(path: string): string {
  return path
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((param, segment) => (/^\d+$/.test(segment) ? `${param}[${segment}]` : param ? `${param}.${segment}` : segment), "");
}
