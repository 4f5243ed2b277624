import { SpanKind, SpanStatusCode, trace as otelTrace, ROOT_CONTEXT, type Attributes } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace";
import { HealthReportingSpanExporter } from "./otel-exporter-health.js";
import type { OtelSettings } from "./settings.js";
import type { TraceRecord } from "./types.js";
import { finishReason, genAiCallInput, genAiInputMessages, genAiOutputMessage } from "./otel-messages.js";
import type { RunContent } from "./exported-content.js";

/**
 * Run traces as OpenTelemetry spans over OTLP/HTTP (protobuf or JSON), with the GenAI semantic
 * conventions: one `invoke_agent` span per run, a `chat` span per model call and an
 * `execute_tool` span per tool call beneath it; a run is kept or dropped whole (`sampleRate` on
 * its root span). What was said goes along only with `captureContent`. This module, and the
 * exporter of the chosen protocol, are imported only when traces are exported.
 */
export class OtelTraceExporter {
  private readonly provider: TracerProvider;
  private readonly tracer;

  static async create(settings: OtelSettings & { version: string }): Promise<OtelTraceExporter> {
    const options = { url: settings.url, headers: settings.headers };
    const exporter =
      settings.protocol === "http/json"
        ? new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter(options)
        : new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter(options);
    return new OtelTraceExporter(settings, new HealthReportingSpanExporter(exporter, settings.protocol === "http/json" ? "otlp-http-json" : "otlp-http-protobuf"));
  }

  private constructor(
    private readonly settings: OtelSettings & { version: string },
    exporter: SpanExporter,
  ) {
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": settings.serviceName, "service.version": settings.version }),
      sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRate) }),
      spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: settings.flushIntervalMs })],
    });
    this.tracer = this.provider.getTracer("openclaw", settings.version);
  }

  /** `content` is what was said beyond the record (system prompt, history, each call's part): given when `captureContent` is on. */
  export(record: TraceRecord, content?: RunContent): void {
    const systemInstructions = content?.systemInstructions ? JSON.stringify([{ type: "text", content: content.systemInstructions }]) : undefined;
    const root = this.tracer.startSpan(`invoke_agent ${record.agentId}`, {
      kind: SpanKind.INTERNAL,
      startTime: record.startedAt,
      attributes: compact({
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": record.agentId,
        "gen_ai.conversation.id": record.sessionKey,
        "gen_ai.request.model": modelId(record.model),
        "gen_ai.usage.input_tokens": record.usage.input,
        "gen_ai.usage.output_tokens": record.usage.output,
        "openclaw.run_id": record.runId,
        "openclaw.source": record.source,
        "openclaw.outcome": record.outcome,
        ...(this.settings.captureContent
          ? {
              "gen_ai.system_instructions": systemInstructions,
              "gen_ai.input.messages": jsonUnlessEmpty(genAiInputMessages(content?.history ?? [], record.input)),
              "gen_ai.output.messages": jsonUnlessEmpty(
                record.output ? [{ role: "assistant", parts: [{ type: "text", content: record.output }], finish_reason: finishReason(record.stopReason) }] : [],
              ),
            }
          : {}),
      }),
    });
    const parent = otelTrace.setSpan(ROOT_CONTEXT, root);
    for (const [index, call] of record.modelCalls.entries()) {
      const own = content?.calls[index];
      const span = this.tracer.startSpan(
        `chat ${call.model ?? ""}`.trim(),
        {
          kind: SpanKind.CLIENT,
          startTime: call.startedAt,
          attributes: compact({
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": call.provider,
            "gen_ai.request.model": call.model,
            "gen_ai.response.model": call.model,
            "gen_ai.usage.input_tokens": call.usage?.input,
            "gen_ai.usage.output_tokens": call.usage?.output,
            "gen_ai.usage.cache_read.input_tokens": call.usage?.cacheRead,
            "gen_ai.usage.cache_creation.input_tokens": call.usage?.cacheWrite,
            "gen_ai.response.finish_reasons": call.stopReason ? [call.stopReason] : undefined,
            "openclaw.auth_profile": call.authProfile,
            "openclaw.ttft_ms": call.ttftMs,
            "openclaw.failover_attempts": call.failover.length,
            ...(this.settings.captureContent
              ? {
                  "gen_ai.system_instructions": systemInstructions,
                  "gen_ai.input.messages": own?.before ? JSON.stringify(genAiCallInput(content?.history ?? [], record.input, own.before)) : undefined,
                  "gen_ai.output.messages": own?.reply ? JSON.stringify([genAiOutputMessage(own.reply, call.stopReason)]) : undefined,
                }
              : {}),
          }),
        },
        parent,
      );
      if (call.error) span.setStatus({ code: SpanStatusCode.ERROR, message: call.error });
      span.end(call.startedAt + call.latencyMs);
    }
    for (const tool of record.toolCalls) {
      const span = this.tracer.startSpan(
        `execute_tool ${tool.name}`,
        {
          kind: SpanKind.INTERNAL,
          startTime: tool.startedAt,
          attributes: compact({
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": tool.name,
            "gen_ai.tool.call.id": tool.id,
            "openclaw.tool.decision": tool.decision,
            "openclaw.tool.result_chars": tool.resultChars,
            "openclaw.tool.approval": tool.approval ? (tool.approval.answer ?? tool.approval.policy) : undefined,
            ...(this.settings.captureContent ? { "gen_ai.tool.call.arguments": JSON.stringify(tool.args ?? {}), "gen_ai.tool.call.result": tool.resultHead } : {}),
          }),
        },
        parent,
      );
      if (tool.isError) span.setStatus({ code: SpanStatusCode.ERROR, message: tool.decisionReason ?? "tool error" });
      span.end(tool.startedAt + (tool.durationMs ?? 0));
    }
    if (record.outcome !== "ok") root.setStatus({ code: SpanStatusCode.ERROR, message: record.error ?? record.outcome });
    root.end(record.endedAt);
  }

  /** Sends what is batched. */
  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}

function jsonUnlessEmpty(messages: readonly unknown[]): string | undefined {
  return messages.length === 0 ? undefined : JSON.stringify(messages);
}

function modelId(ref: string | undefined): string | undefined {
  return ref?.includes("/") ? ref.slice(ref.indexOf("/") + 1) : ref;
}

function compact(attributes: Record<string, string | number | string[] | undefined>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}
