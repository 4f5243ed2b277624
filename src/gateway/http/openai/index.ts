export { registerOpenAiRoutes, CHAT_COMPLETIONS_BODY_LIMIT } from "./register-openai-routes.js";
export type { ChatTurnInput, ChatTurnResult, OpenAiAgentInfo, OpenAiRouteDeps } from "./types.js";
