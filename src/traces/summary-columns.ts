/** The `traces` columns a TraceSummary is read from (trace-store.ts), of the table named `t` when given (a join). */
export function summaryColumns(t = ""): string {
  const c = (column: string) => (t ? `${t}.${column}` : column);
  return `${c("run_id")} AS runId, ${c("session_key")} AS sessionKey, ${c("agent_id")} AS agentId, ${c("source")} AS source, ${c("started_at")} AS startedAt,
  ${c("duration_ms")} AS durationMs, ${c("outcome")} AS outcome, ${c("model")} AS model, ${c("input_tokens")} AS inputTokens, ${c("output_tokens")} AS outputTokens,
  ${c("model_calls")} AS modelCalls, ${c("tool_calls")} AS toolCalls`;
}
