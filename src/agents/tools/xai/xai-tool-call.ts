import { TOOL_ERRORS } from "../../tool-errors.js";
import { toolError } from "../../tool-result.js";
import type { ToolResult } from "../../types.js";
import type { XaiAnswer } from "./xai-answer.js";
import { XAI_KEY_HINT } from "./xai-credentials.js";
import { askXai, XaiRequestError, type XaiRequest } from "./xai-responses.js";

/**
 * One xAI tool call (x_search, code_execution): the request, then `present` on its answer; every
 * failure as a coded tool error naming the tool and what to change (`timeoutSetting` is the key
 * that raises its timeout), never the key or xAI's response body. The run stopping ends it as
 * aborted.
 */
export async function callXaiTool(
  tool: string,
  request: XaiRequest,
  signal: AbortSignal,
  timeoutSetting: string,
  present: (answer: XaiAnswer, tookMs: number) => ToolResult,
): Promise<ToolResult> {
  const started = performance.now();
  let answer: XaiAnswer;
  try {
    answer = await askXai(request, signal);
  } catch (error) {
    if (signal.aborted) return toolError(TOOL_ERRORS.abortedWhileRunning());
    if (!(error instanceof XaiRequestError)) return toolError(TOOL_ERRORS.xaiProviderFailed(tool, (error as Error).message));
    if (error.status === 401 || error.status === 403) return toolError(TOOL_ERRORS.xaiProviderAuth(tool, error.message, XAI_KEY_HINT));
    if (error.status === 429) return toolError(TOOL_ERRORS.xaiRateLimited(tool, error.message));
    if (error.kind === "timeout") return toolError(TOOL_ERRORS.xaiTimeout(tool, error.message, timeoutSetting));
    return toolError(TOOL_ERRORS.xaiProviderFailed(tool, error.message));
  }
  return present(answer, Math.round(performance.now() - started));
}
