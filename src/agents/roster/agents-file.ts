import fs from "node:fs";
import { hashConfigBytes, parseConfigText, type OpenClawConfig } from "../../config/index.js";
import { listAgentConfigs, normalizeAgentId } from "../agent-config.js";
import type { Binding } from "./route-bindings.js";

/** An edit of the agent roster refused: the message names what failed and the fix; nothing was written. */
export class AgentRosterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentRosterError";
  }
}

/** The config an agent roster edit starts from: the loaded config (what the gateway runs) and the file as written (what the edit rewrites). */
export interface AgentsConfigFile {
  stateDir: string;
  /** The file written: the one in use, else the state dir's default. */
  file: string;
  config: OpenClawConfig;
  /** The file as written (no defaults, `${VAR}` and `$include` kept), `{}` when there is none. */
  raw: Record<string, unknown>;
  /** The hash of the bytes read: the write fails if the file changes meanwhile. */
  baseHash: string | undefined;
}

/** Reads `file` as written (once, with its hash) beside the loaded `config`. A missing file is an empty one. */
export function readAgentsConfigFileAt(stateDir: string, file: string, config: OpenClawConfig): AgentsConfigFile {
  let bytes: Buffer | undefined;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new AgentRosterError(`cannot read the config file ${file}: ${(err as Error).message}`);
  }
  const parsed = bytes ? parseConfigText(bytes.toString("utf8"), file) : {};
  const raw = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { stateDir, file, config, raw, baseHash: bytes ? hashConfigBytes(bytes) : undefined };
}

/** The distinct agent ids the config runs (an id in both spellings is one agent). */
export function agentIds(file: AgentsConfigFile): string[] {
  return [...new Set(listAgentConfigs(file.config).map((a) => a.id))];
}

/** True when the config names no agent: the implicit `main` runs on the defaults. */
export function definesNoAgents(file: AgentsConfigFile): boolean {
  const agents = file.config.agents;
  return (agents?.list?.length ?? 0) === 0 && Object.keys(agents?.entries ?? {}).length === 0;
}

/**
 * The file's `bindings` list. One an `$include` supplies is not a list here: an edit would
 * replace the include, so it is refused.
 */
export function rawBindings(file: AgentsConfigFile): Binding[] {
  const bindings = file.raw.bindings;
  if (bindings === undefined) return [];
  if (!Array.isArray(bindings))
    throw new AgentRosterError(`bindings in ${file.file} is not a plain list (an $include?): edit the file that holds the bindings by hand. Config was not changed.`);
  return bindings as Binding[];
}

/** A merge patch of the config file and the lists it replaces whole. */
export interface ConfigFilePatch {
  patch: Record<string, unknown>;
  replacePaths: string[];
}

/** The configured agent `input` names (any case); an id the config does not define is refused. */
export function existingAgentId(file: AgentsConfigFile, input: string): string {
  const id = normalizeAgentId(input);
  const known = agentIds(file);
  if (!known.includes(id)) throw new AgentRosterError(`Agent "${input.trim()}" not found (configured agents: ${known.join(", ")}; openclaw agents list shows them).`);
  return id;
}
