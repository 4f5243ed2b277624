export { SessionToolService, type SessionToolServiceDeps } from "./session-tool-service.js";
export { AgentToAgent, type SendOutcome } from "./agent-to-agent.js";
export { checkSessionVisible, type SessionVisibility } from "./session-visibility.js";
