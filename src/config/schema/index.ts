import { Type, type Static } from "@sinclair/typebox";
import { AgentsSchema } from "./agents.js";
import { AuthSchema } from "./auth.js";
import { GatewaySchema } from "./gateway.js";
import { LoggingSchema } from "./logging.js";
import { ModelsSchema } from "./models.js";
import { SessionSchema } from "./session.js";
import { ToolsSchema } from "./tools.js";
import { MessagesSchema } from "./messages.js";
import { MemorySchema } from "./memory.js";
import { AccessGroupsSchema, BindingsSchema, ChannelsSchema, CommandsSchema } from "./channels.js";
import { AcpSchema } from "./acp.js";
import { PluginsSchema } from "./plugins.js";
import { CronSchema, HooksSchema } from "./automation.js";
import { DiagnosticsSchema } from "./diagnostics.js";
import { SkillsSchema } from "./skills.js";
import { EnvSchema } from "./env.js";
import { ApprovalsSchema } from "./approvals.js";
import { McpSchema } from "./mcp.js";
import { SecretsSchema } from "./secrets.js";
import { TtsSchema } from "./tts.js";
import { BrowserSchema } from "./browser.js";

/**
 * The keys this clone implements. Objects are open on purpose: keys not listed here are
 * reported as warnings and dropped before validation (see unknown-keys.ts), because
 * OpenClaw's strict rejection of unknown keys turned every upgrade into a broken gateway.
 */
export const OpenClawConfigSchema = Type.Object({
  $schema: Type.Optional(Type.String()),
  gateway: Type.Optional(GatewaySchema),
  logging: Type.Optional(LoggingSchema),
  agents: Type.Optional(AgentsSchema),
  models: Type.Optional(ModelsSchema),
  auth: Type.Optional(AuthSchema),
  session: Type.Optional(SessionSchema),
  tools: Type.Optional(ToolsSchema),
  messages: Type.Optional(MessagesSchema),
  channels: Type.Optional(ChannelsSchema),
  accessGroups: Type.Optional(AccessGroupsSchema),
  bindings: Type.Optional(BindingsSchema),
  commands: Type.Optional(CommandsSchema),
  memory: Type.Optional(MemorySchema),
  acp: Type.Optional(AcpSchema),
  plugins: Type.Optional(PluginsSchema),
  cron: Type.Optional(CronSchema),
  diagnostics: Type.Optional(DiagnosticsSchema),
  hooks: Type.Optional(HooksSchema),
  skills: Type.Optional(SkillsSchema),
  env: Type.Optional(EnvSchema),
  approvals: Type.Optional(ApprovalsSchema),
  mcp: Type.Optional(McpSchema),
  secrets: Type.Optional(SecretsSchema),
  tts: Type.Optional(TtsSchema),
  browser: Type.Optional(BrowserSchema),
});

/** The config as written by the user: everything optional, no defaults. */
export type RawOpenClawConfig = Static<typeof OpenClawConfigSchema>;

export { AGENT_ID_DESCRIPTION, AGENT_ID_PATTERN } from "./agents.js";
