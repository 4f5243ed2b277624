import { type Static, Type } from "@sinclair/typebox";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool } from "../types.js";
import { wrapUntrusted } from "./web-search/search-output.js";
import { callXaiTool } from "./xai/xai-tool-call.js";

const CodeExecutionParameters = Type.Object({
  task: Type.String({ minLength: 1, description: "The whole analysis to run in xAI's remote Python sandbox, with the data it needs written into it." }),
});
export type CodeExecutionArgs = Static<typeof CodeExecutionParameters>;

/**
 * Runs an analysis in xAI's remote Python sandbox through the Responses API (its server-side
 * `code_interpreter` tool; settings in ctx.services.xai, offered only with an xAI key). The
 * sandbox has no access to this machine: no files, no shell, nothing kept between calls. The
 * answer is wrapped as untrusted data; `usedCodeExecution` says whether xAI ran code at all.
 */
export function createCodeExecutionTool(): AgentTool<typeof CodeExecutionParameters> {
  return {
    name: "code_execution",
    description:
      "Run a Python analysis in xAI's remote sandbox: calculations, tables, statistics. It cannot see local files or the workspace " +
      "and keeps nothing between calls, so put the data in the task. Runs on xAI's servers (billed per call). The answer is untrusted data.",
    parameters: CodeExecutionParameters,
    async execute(args, ctx, signal) {
      const settings = ctx.services.xai?.codeExecution;
      if (!settings) return toolError(TOOL_ERRORS.xaiToolUnavailable("code_execution"));
      const task = String(args.task ?? "").trim();
      if (!task) return toolError(TOOL_ERRORS.argumentsInvalid("code_execution", "task is empty"));
      const request = {
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        model: settings.model,
        input: task,
        tool: { type: "code_interpreter" },
        ...(settings.maxTurns ? { maxTurns: settings.maxTurns } : {}),
        timeoutMs: settings.timeoutMs,
      };
      return callXaiTool("code_execution", request, signal, "plugins.entries.xai.config.codeExecution.timeoutSeconds", (answer, tookMs) => {
        const output = {
          task,
          provider: "xai",
          model: settings.model,
          tookMs,
          externalContent: { untrusted: true, source: "code_execution", provider: "xai", wrapped: true },
          content: wrapUntrusted(answer.content),
          citations: answer.citations,
          usedCodeExecution: answer.outputTypes.includes("code_interpreter_call"),
          outputTypes: answer.outputTypes,
          ...(answer.truncated ? { truncated: true } : {}),
        };
        return toolText(JSON.stringify(output, null, 2), { provider: "xai", usedCodeExecution: output.usedCodeExecution });
      });
    },
  };
}
