import { modelsView, type ModelsViewRow } from "../agents/models-view.js";
import { loadConfig } from "../config/index.js";
import { readLiveLock } from "../gateway/state-lock.js";
import { connectClient, resolveClientTarget, type ClientFlags } from "./client-context.js";
import { CliError, printJson } from "./output.js";

export interface ModelsListFlags extends ClientFlags {
  agent?: string;
  all?: boolean;
  provider?: string;
  local?: boolean;
  plain?: boolean;
  refresh?: boolean;
}

/** A row as OpenClaw's `openclaw models list --json` prints it. */
interface ModelsListRow {
  key: string;
  name: string;
  input: string;
  contextWindow: number | null;
  local: boolean | null;
  available: boolean | null;
  tags: string[];
}

/**
 * `openclaw models list`: the models the gateway's `models.list` answers. With no gateway
 * running for this state dir and none named (--url, --port, $OPENCLAW_GATEWAY_PORT, a remote
 * gateway in the config), the models the local config names, with a note on stderr, as
 * OpenClaw falls back to its local catalog. A named gateway that does not answer is an error.
 */
export async function modelsListCommand(flags: ModelsListFlags): Promise<void> {
  if (flags.json && flags.plain) throw new CliError("Choose either --json or --plain, not both.");
  if (flags.refresh) {
    throw new CliError(
      "--refresh: this gateway does not discover provider models; the list is the models the config names (models.providers.<id>.models, the agents' model and fallbacks). Add a model there instead.",
    );
  }
  const provider = flags.provider?.trim();
  if (provider !== undefined && (provider === "" || /\s/.test(provider))) {
    throw new CliError(`Invalid provider filter "${flags.provider}". Use a provider id such as "anthropic", not a display label.`);
  }
  const query = { ...(flags.agent?.trim() ? { agentId: flags.agent.trim() } : {}), ...(provider ? { provider } : {}) };
  const models = (await fromGateway(flags, query)) ?? fromLocalConfig(query);
  const rows = models.filter((m) => !flags.local || m.local === true).map(toRow);
  if (flags.json) return printJson({ count: rows.length, models: rows });
  if (flags.plain) {
    process.stdout.write(rows.map((r) => `${r.key}\n`).join(""));
    return;
  }
  process.stdout.write(rows.length === 0 ? "No models found.\n" : formatTable(rows));
}

/** The gateway's answer, or undefined when the gateway to ask is the local one and it is not running. */
async function fromGateway(flags: ModelsListFlags, query: { agentId?: string; provider?: string }): Promise<ModelsViewRow[] | undefined> {
  const target = resolveClientTarget(flags);
  const named = flags.url || flags.port || process.env.OPENCLAW_GATEWAY_PORT?.trim() || target.kind !== "local";
  if (!named && !readLiveLock(target.stateDir)) return undefined;
  const client = await connectClient(flags);
  try {
    const params = { ...query, view: flags.all || query.provider ? "all" : "default", includeDetails: true };
    const payload = (await client.call("models.list", params, { timeoutMs: target.timeoutMs })) as { models: ModelsViewRow[] };
    return payload.models;
  } finally {
    client.close();
  }
}

function fromLocalConfig(query: { agentId?: string; provider?: string }): ModelsViewRow[] {
  const target = resolveClientTarget({});
  const { config, path } = loadConfig({ stateDir: target.stateDir, env: process.env });
  process.stderr.write(`Gateway is not running. Showing the models the local config names (${path ?? "no config file: built-in defaults"}).\n`);
  const view = modelsView(config, process.env, { ...query, includeDetails: true });
  if (!view.ok) throw new CliError(view.message);
  return view.models;
}

function toRow(model: ModelsViewRow): ModelsListRow {
  return {
    key: `${model.provider}/${model.id}`,
    name: model.name,
    input: model.input?.join("+") || "-",
    contextWindow: model.contextWindow ?? null,
    local: model.local ?? null,
    available: model.available ?? null,
    tags: [...new Set([...(model.tags ?? []), ...(model.alias ? [`alias:${model.alias}`] : [])])],
  };
}

// Column widths of OpenClaw's table, so both CLIs line up the same.
const WIDTHS = [42, 10, 11, 5, 5] as const;

function formatTable(rows: ModelsListRow[]): string {
  const yesNo = (value: boolean | null) => (value === null ? "-" : value ? "yes" : "no");
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < WIDTHS.length ? cell.padEnd(WIDTHS[i]!) : cell))
      .join(" ")
      .trimEnd();
  const lines = [line(["Model", "Input", "Ctx", "Local", "Auth", "Tags"])];
  for (const row of rows) {
    const key = row.key.length > WIDTHS[0] ? `${row.key.slice(0, WIDTHS[0] - 3)}...` : row.key;
    lines.push(line([key, row.input, tokensK(row.contextWindow), yesNo(row.local), yesNo(row.available), row.tags.join(",")]));
  }
  return `${lines.join("\n")}\n`;
}

/** 32768 → 33k, as OpenClaw's Ctx column. */
function tokensK(value: number | null): string {
  if (!value || !Number.isFinite(value)) return "-";
  return value < 1000 ? String(Math.round(value)) : `${Math.round(value / 1000)}k`;
}
