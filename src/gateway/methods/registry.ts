import type { Static, TSchema } from "@sinclair/typebox";
import { compileValidator, type Validator } from "../protocol/frames.js";
import type { GatewayRuntime } from "../runtime.js";

/** What a handler knows about the caller. */
export interface CallerInfo {
  connId: string;
  role: string;
  scopes: readonly string[];
  caps: readonly string[];
  clientId: string;
  clientMode: string;
}

export interface MethodContext {
  runtime: GatewayRuntime;
  caller: CallerInfo;
  /** Aborted when the client cancels the request or disconnects. */
  signal: AbortSignal;
  /**
   * Send an early response with the same request id before the final one (the two-stage
   * `agent` method: `accepted` first, the result later).
   */
  ack(payload: unknown): void;
}

export interface MethodDefinition<S extends TSchema = TSchema> {
  name: string;
  /** Least operator scope needed; a client without it gets a scope error. */
  scope: string;
  params: S;
  handler(params: Static<S>, ctx: MethodContext): unknown | Promise<unknown>;
}

interface RegisteredMethod {
  definition: MethodDefinition;
  readonly validator: Validator<unknown>;
}

/**
 * RPC methods register like fastify routes: a name, a scope, a params schema and a small
 * handler. The dispatcher owns validation and authorization, so handlers never repeat them.
 */
export class MethodRegistry {
  private readonly methods = new Map<string, RegisteredMethod>();

  register<S extends TSchema>(definition: MethodDefinition<S>): void {
    if (this.methods.has(definition.name)) throw new Error(`method registered twice: ${definition.name}`);
    // Compiled on first call: most methods are never called in a process's life, and compiling
    // all of them would sit between the open port and "ready".
    let validator: Validator<unknown> | undefined;
    this.methods.set(definition.name, {
      definition: definition as unknown as MethodDefinition,
      get validator() {
        validator ??= compileValidator(definition.params) as Validator<unknown>;
        return validator;
      },
    });
  }

  get(name: string): RegisteredMethod | undefined {
    return this.methods.get(name);
  }

  names(): string[] {
    return [...this.methods.keys()];
  }
}
