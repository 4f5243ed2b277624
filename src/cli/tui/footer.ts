/** The footer's facts about the current session, from its `sessions.describe` row and `chat.history`. */
export interface SessionFacts {
  model?: string;
  thinking?: string;
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  contextTokens?: number;
  /** The session's goal in OpenClaw's compact footer words (goalFooterText); absent without a goal. */
  goal?: string;
}

/** A session row (sessions.describe's `session`) read for the footer; null when the session has no row yet. */
export function sessionFacts(row: Record<string, unknown> | null | undefined, historyThinking?: string): SessionFacts {
  const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
  const str = (value: unknown) => (typeof value === "string" && value ? value : undefined);
  const provider = str(row?.modelProvider);
  const model = str(row?.model);
  return {
    model: model ? (provider ? `${provider}/${model}` : model) : undefined,
    thinking: str(row?.thinkingLevel) ?? historyThinking,
    inputTokens: num(row?.inputTokens),
    outputTokens: num(row?.outputTokens),
    totalTokens: num(row?.totalTokens),
    contextTokens: num(row?.contextTokens),
    goal: goalFooterText(row?.goal),
  };
}

/**
 * A session goal as the footer says it (OpenClaw's TUI words): `Pursuing goal (12k/50k)`,
 * `Goal paused (/goal resume)`, `Goal unmet (50k/50k)`, `Goal achieved (42k)`; undefined for no goal.
 */
export function goalFooterText(goal: unknown): string | undefined {
  if (!goal || typeof goal !== "object") return undefined;
  const { status, tokensUsed, tokenBudget } = goal as { status?: unknown; tokensUsed?: unknown; tokenBudget?: unknown };
  const used = compactCount(typeof tokensUsed === "number" ? tokensUsed : 0);
  const budget = typeof tokenBudget === "number" ? `${used}/${compactCount(tokenBudget)}` : undefined;
  switch (status) {
    case "active":
      return budget ? `Pursuing goal (${budget})` : "Pursuing goal";
    case "paused":
      return "Goal paused (/goal resume)";
    case "blocked":
      return "Goal blocked (/goal resume)";
    case "usage_limited":
      return "Goal hit usage limits (/goal resume)";
    case "budget_limited":
      return `Goal unmet (${budget ?? used})`;
    case "complete":
      return `Goal achieved (${used})`;
    default:
      return undefined;
  }
}

/** 1234 → 1.2k, 1500000 → 1.5M. */
export function compactCount(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${(value / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  return `${(value / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

/**
 * `agent main | model p/m | think low | tokens 1.2k in/40 out | ctx 1.2k/200k | session agent:main:main`,
 * with the session's goal after the model when it has one (`| Pursuing goal (12k/50k) |`),
 * `| deliver on` when delivering: short enough for 120 columns with a main session key; the key
 * goes last, since a long one (`/new`'s) is the part to lose on a narrow screen (the header shows it whole).
 */
export function footerLine(agentId: string, sessionKey: string, facts: SessionFacts, deliver: boolean): string {
  const parts = [`agent ${agentId}`, `model ${facts.model ?? "default"}`, ...(facts.goal ? [facts.goal] : []), `think ${facts.thinking ?? "default"}`];
  parts.push(`tokens ${compactCount(facts.inputTokens ?? 0)} in/${compactCount(facts.outputTokens ?? 0)} out`);
  if (facts.totalTokens !== undefined && facts.contextTokens) parts.push(`ctx ${compactCount(facts.totalTokens)}/${compactCount(facts.contextTokens)}`);
  parts.push(`session ${sessionKey}`);
  if (deliver) parts.push("deliver on");
  return parts.join(" | ");
}
