import { Type } from "@sinclair/typebox";
import { CHAT_COMMANDS } from "../../conversations/commands/chat-commands.js";
import type { MethodRegistry } from "./registry.js";

const Scope = Type.Union([Type.Literal("text"), Type.Literal("native"), Type.Literal("both")]);

/**
 * `commands.list`: the gateway's chat commands (one registry, the same on every surface), in the
 * shape OpenClaw clients use for their `/` menus. Every command is typed as text; none is a
 * native menu entry yet, so `scope: "native"` lists nothing.
 */
export function registerCommandMethods(registry: MethodRegistry): void {
  registry.register({
    name: "commands.list",
    scope: "operator.read",
    params: Type.Object(
      {
        sessionKey: Type.Optional(Type.String({ minLength: 1 })),
        agentId: Type.Optional(Type.String({ minLength: 1 })),
        provider: Type.Optional(Type.String({ minLength: 1 })),
        scope: Type.Optional(Scope),
        includeArgs: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    handler: (params) => {
      if (params.scope === "native") return { commands: [] };
      return {
        commands: CHAT_COMMANDS.all().map((command) => ({
          name: command.name,
          textAliases: [command.name, ...(command.aliases ?? [])].map((n) => `/${n}`),
          description: command.ownerOnly ? `${command.description} (owner only)` : command.description,
          ...(command.category ? { category: command.category } : {}),
          source: "native",
          scope: "text",
          acceptsArgs: command.args !== undefined,
          ...(params.includeArgs && command.args ? { args: [{ name: "args", description: command.args, type: "string" }] } : {}),
        })),
      };
    },
  });
}
