import { html, nothing, type TemplateResult } from "lit";
import { formatNumber, formatTime } from "../view-helpers.js";
import type { ModelCall, ToolCall, TraceDetail, TraceRecord, TraceUsage } from "./trace-record.js";
import { renderTraceHistory } from "./trace-history.js";
import "./capped-text.js";

/**
 * One run's trace as a tree, in the order things happened: the conversation before it (folded), the input, then model and tool calls
 * by start time (failover attempts, policy decisions, approvals and result heads beneath them),
 * thinking (folded), compactions, the reply and how the run ended — what `openclaw traces show`
 * prints. Every text goes in as text; long ones are capped (oc-capped-text).
 */
export function renderTraceTree({ trace, systemPrompt, history }: TraceDetail): TemplateResult {
  const steps = [
    ...trace.modelCalls.map((call) => ({ at: call.startedAt, render: () => modelStep(call) })),
    ...trace.toolCalls.map((tool) => ({ at: tool.startedAt, render: () => toolStep(tool) })),
  ].sort((a, b) => a.at - b.at);
  return html`<article class="trace" aria-label="Run ${trace.runId}">
    <h3 tabindex="-1">Run <code>${trace.runId}</code> ${outcomeBadge(trace.outcome)}</h3>
    ${runFacts(trace)} ${systemPromptPart(trace, systemPrompt)} ${renderTraceHistory(history)}
    <ol class="trace-tree">
      ${trace.input.map((text) => html`<li class="step input"><span class="kind">user</span>${text ? html`<oc-capped-text .text=${text}></oc-capped-text>` : html`<span class="hint">(no text)</span>`}</li>`)}
      ${steps.map((step) => step.render())}
      ${trace.thinking.map(
        (thought) =>
          html`<li class="step thinking"><details><summary><span class="kind">thinking</span> ${formatNumber(thought.length)} characters</summary><oc-capped-text .text=${thought}></oc-capped-text></details></li>`,
      )}
      ${trace.compactions.map(
        (c) => html`<li class="step compaction">
          <span class="kind">compaction</span> ${c.reason} · ${c.ok ? "ok" : "failed"}${c.tokensBefore !== undefined ? ` · ${formatNumber(c.tokensBefore)} → ${c.tokensAfter !== undefined ? formatNumber(c.tokensAfter) : "?"} tokens` : ""}
        </li>`,
      )}
      <li class="step output"><span class="kind">reply</span>${trace.output ? html`<oc-capped-text .text=${trace.output}></oc-capped-text>` : html`<span class="hint">(no text)</span>`}</li>
      <li class="step outcome">
        <span class="kind">outcome</span> ${outcomeBadge(trace.outcome)}${trace.stopReason ? ` · stop reason ${trace.stopReason}` : ""}
        ${trace.error ? html`<div class="error"><oc-capped-text .text=${trace.error}></oc-capped-text></div>` : nothing}
      </li>
    </ol>
  </article>`;
}

export function outcomeBadge(outcome: string): TemplateResult {
  return html`<span class="badge outcome ${outcome === "ok" ? "ok" : "bad"}">${outcome}</span>`;
}

/** `1234` → "1234ms", `12345` → "12.3s", as the CLI prints durations. */
export function duration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return "?";
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms)}ms`;
}

function runFacts(trace: TraceRecord): TemplateResult {
  return html`<dl class="trace-facts">
    <dt>Started</dt><dd>${formatTime(trace.startedAt)}</dd>
    <dt>Duration</dt><dd>${duration(trace.durationMs)}</dd>
    <dt>Source</dt><dd>${trace.source}</dd>
    <dt>Session</dt><dd>${trace.sessionKey}</dd>
    <dt>Agent</dt><dd>${trace.agentId}</dd>
    <dt>Model</dt><dd>${trace.model ?? "—"}</dd>
    <dt>Tokens</dt><dd>${tokens(trace.usage)}</dd>
  </dl>`;
}

function systemPromptPart(trace: TraceRecord, text: string | undefined): TemplateResult | typeof nothing {
  if (!trace.systemPromptHash && text === undefined) return nothing;
  const chars = trace.systemPromptChars ?? text?.length ?? 0;
  return html`<details class="system-prompt">
    <summary>System prompt${trace.systemPromptHash ? html` <code>${trace.systemPromptHash.slice(0, 12)}</code>` : nothing} (${formatNumber(chars)} characters)</summary>
    ${trace.tools?.length ? html`<p class="hint">Tools: ${trace.tools.join(", ")}</p>` : nothing}
    ${text !== undefined ? html`<oc-capped-text .text=${text}></oc-capped-text>` : html`<p class="hint">Its text is no longer stored.</p>`}
  </details>`;
}

function modelStep(call: ModelCall): TemplateResult {
  return html`<li class="step model-call">
    <div class="line">
      <span class="kind">model</span> <strong>${call.provider ?? "?"}/${call.model ?? "?"}</strong>${call.authProfile ? ` [${call.authProfile}]` : ""}
      · ${duration(call.latencyMs)}${call.ttftMs !== undefined ? ` · ttft ${duration(call.ttftMs)}` : ""}${call.usage ? ` · ${tokens(call.usage)}` : ""}${call.stopReason ? ` · ${call.stopReason}` : ""}
    </div>
    ${call.error ? html`<div class="error"><oc-capped-text .text=${call.error}></oc-capped-text></div>` : nothing}
    ${
      call.failover.length > 0
        ? html`<ul class="beneath">
            ${call.failover.map((a) => html`<li class="failover">failover: ${a.ref}${a.profileId ? ` [${a.profileId}]` : ""} · ${a.reason}: ${a.message}</li>`)}
          </ul>`
        : nothing
    }
  </li>`;
}

function toolStep(tool: ToolCall): TemplateResult {
  const failed = tool.decision !== "allowed" || tool.isError === true;
  return html`<li class="step tool-call ${failed ? "failed" : ""}">
    <div class="line">
      <span class="kind">tool</span> <strong class="tool-name">${tool.name}</strong> · ${duration(tool.durationMs)}${tool.isError ? " · error" : ""}
    </div>
    <details class="args"><summary>Arguments</summary><oc-capped-text .text=${argsText(tool.args)}></oc-capped-text></details>
    <ul class="beneath">
      <li>policy: ${tool.decision}${tool.decisionReason ? ` · ${tool.decisionReason}` : ""}</li>
      ${
        tool.approval
          ? html`<li>approval: <code>${tool.approval.command}</code> · ${tool.approval.policy}${tool.approval.answer ? ` → ${tool.approval.answer}` : ""} (${tool.approval.allowed ? "ran" : "denied"})${tool.approval.reason ? ` · ${tool.approval.reason}` : ""}</li>`
          : nothing
      }
      ${
        tool.resultHead !== undefined
          ? html`<li class="result">result (${formatNumber(tool.resultChars ?? 0)} characters)${(tool.resultChars ?? 0) > tool.resultHead.length ? ", first ones" : ""}: <oc-capped-text .text=${tool.resultHead}></oc-capped-text></li>`
          : nothing
      }
    </ul>
  </li>`;
}

function tokens(usage: TraceUsage): string {
  const cache = usage.cacheRead || usage.cacheWrite ? ` (cache read ${formatNumber(usage.cacheRead)}, write ${formatNumber(usage.cacheWrite)})` : "";
  return `in ${formatNumber(usage.input)} / out ${formatNumber(usage.output)}${cache}`;
}

function argsText(args: unknown): string {
  if (args === undefined) return "";
  if (typeof args === "string") return args;
  return JSON.stringify(args, null, 2);
}
