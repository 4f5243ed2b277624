import { Type } from "@sinclair/typebox";
import { CHAT_COMMANDS } from "../../conversations/commands/chat-commands.js";
import { describeCommand } from "../../conversations/commands/chat-command-registry.js";
import { nativeCommandMenu } from "../../channels/commands/native-command-menu.js";
import type { MethodRegistry } from "./registry.js";

const Scope = Type.Union([Type.Literal("text"), Type.Literal("native"), Type.Literal("both")]);

/**
 * `commands.list`: the gateway's chat commands (one registry, the same on every surface), in the
 * shape OpenClaw clients use for their `/` menus. Commands that chat platforms also list in their
 * own menu (Telegram's, see native-command-menu.ts) have `scope: "both"`; the rest `"text"`.
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
    handler: (params, { runtime }) => {
      const native = new Set(nativeCommandMenu(runtime.config()).map((c) => c.command));
      const listed = CHAT_COMMANDS.all().filter((c) => params.scope !== "native" || native.has(c.name));
      return {
        commands: listed.map((command) => ({
          name: command.name,
          textAliases: [command.name, ...(command.aliases ?? [])].map((n) => `/${n}`),
          description: describeCommand(command),
          ...(command.category ? { category: command.category } : {}),
          source: "native",
          scope: native.has(command.name) ? "both" : "text",
          acceptsArgs: command.args !== undefined,
          ...(params.includeArgs && command.args ? { args: [{ name: "args", description: command.args, type: "string" }] } : {}),
        })),
      };
    },
  });
}
