export { resolveEffectiveTools } from "./resolve-tool-policy.js";
export { explainToolPolicy, type ToolVerdict } from "./explain-tool-policy.js";
export { formatToolPolicyExplanation } from "./format-explanation.js";
export { expandToolNames, isBuiltInTool, TOOL_GROUPS } from "./tool-groups.js";
export { TOOL_PROFILE_NAMES, profileAllowList, type ToolProfileName } from "./tool-profiles.js";
export { compileToolList, type ToolListMatcher } from "./tool-matcher.js";
export { normalizeToolName } from "./tool-names.js";
export { OWNER_ONLY_TOOLS } from "./owner-only-tools.js";
export type { EffectiveTools, PolicyStage, PolicyStep, RemovedTool, ToolPolicyInput } from "./types.js";
