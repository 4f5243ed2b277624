import type { RawOpenClawConfig } from "./schema/index.js";

/** T with keys K made present (defaults fill them), everything else untouched. */
type WithDefaults<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };

type Raw = RawOpenClawConfig;
type RawGateway = NonNullable<Raw["gateway"]>;
type RawAuth = NonNullable<RawGateway["auth"]>;
type RawHttp = NonNullable<RawGateway["http"]>;
type RawEndpoints = NonNullable<RawHttp["endpoints"]>;
type RawAgents = NonNullable<Raw["agents"]>;
type RawAgentDefaults = NonNullable<RawAgents["defaults"]>;

export type GatewayAuthConfig = WithDefaults<RawAuth, "mode"> & {
  rateLimit: Required<NonNullable<RawAuth["rateLimit"]>>;
};

export type GatewayConfig = WithDefaults<RawGateway, "mode" | "port" | "bind"> & {
  auth: GatewayAuthConfig;
  reload: WithDefaults<NonNullable<RawGateway["reload"]>, "mode">;
  http: Omit<RawHttp, "endpoints"> & {
    endpoints: Omit<RawEndpoints, "chatCompletions" | "responses"> & {
      chatCompletions: WithDefaults<NonNullable<RawEndpoints["chatCompletions"]>, "enabled">;
      responses: WithDefaults<NonNullable<RawEndpoints["responses"]>, "enabled">;
    };
  };
};

export type AgentDefaultsConfig = WithDefaults<RawAgentDefaults, "timeoutSeconds" | "maxConcurrent" | "bootstrapMaxChars" | "bootstrapTotalMaxChars">;

export type AgentsConfig = Omit<RawAgents, "defaults"> & { defaults: AgentDefaultsConfig };
export type AgentListEntry = NonNullable<RawAgents["list"]>[number];
export type AgentKeyedEntry = NonNullable<RawAgents["entries"]>[string];

export type LoggingConfig = WithDefaults<NonNullable<Raw["logging"]>, "level">;
export type SessionConfig = WithDefaults<NonNullable<Raw["session"]>, "scope" | "dmScope" | "mainKey">;
export type ModelsConfig = WithDefaults<NonNullable<Raw["models"]>, "mode">;
export type ModelProviderConfig = NonNullable<NonNullable<Raw["models"]>["providers"]>[string];

/**
 * The validated config with defaults applied: every key that has a default is present,
 * so callers read `config.gateway.port` without fallbacks. Keys without a default
 * (tokens, workspace, providers…) stay optional.
 */
export type OpenClawConfig = Omit<Raw, "gateway" | "logging" | "agents" | "session" | "models"> & {
  gateway: GatewayConfig;
  logging: LoggingConfig;
  agents: AgentsConfig;
  session: SessionConfig;
  models: ModelsConfig;
};

/** `heartbeatVisibility` with every flag resolved: deliver acknowledgements (`HEARTBEAT_OK`), deliver alerts, emit status events. */
export type HeartbeatVisibility = Required<NonNullable<NonNullable<NonNullable<Raw["channels"]>["defaults"]>["heartbeatVisibility"]>>;
