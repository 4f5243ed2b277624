import { describe, expect, it } from "vitest";
import { registerAgentRosterMethods } from "../../../src/gateway/methods/agent-roster-methods.js";
import { registerChannelMethods } from "../../../src/gateway/methods/channel-methods.js";
import { registerChatMethods } from "../../../src/gateway/methods/chat-methods.js";
import { registerConfigMethods } from "../../../src/gateway/methods/config-methods.js";
import { registerCronMethods } from "../../../src/gateway/methods/cron-methods.js";
import { registerExecApprovalMethods } from "../../../src/gateway/methods/exec-approval-methods.js";
import { registerProgressCardMethods } from "../../../src/gateway/methods/progress-card-methods.js";
import { registerQuestionMethods } from "../../../src/gateway/methods/question-methods.js";
import { MethodRegistry } from "../../../src/gateway/methods/registry.js";
import { registerSessionGoalMethods } from "../../../src/gateway/methods/session-goal-methods.js";
import { registerSessionMethods } from "../../../src/gateway/methods/session-methods.js";
import { registerTaskMethods } from "../../../src/gateway/methods/task-methods.js";
import { registerTraceMethods } from "../../../src/gateway/methods/trace-methods.js";
import { scopeSatisfied } from "../../../src/gateway/protocol/scopes.js";
import { METHOD_SCOPES, scopeHeld } from "../../../ui/src/method-scopes.js";

/** The gateway's registry with the families whose methods the Control UI offers as actions; the services are never called. */
function gatewayMethods(): MethodRegistry {
  const registry = new MethodRegistry();
  const unused = {} as never;
  registerAgentRosterMethods(registry);
  registerChannelMethods(registry, () => undefined);
  registerConfigMethods(registry);
  registerCronMethods(registry, unused);
  registerTaskMethods(registry, { ...(unused as object), canonicalSessionKey: (key: string) => key } as never);
  registerSessionMethods(registry, unused, unused);
  registerExecApprovalMethods(registry, unused);
  registerChatMethods(registry, unused, unused, unused);
  registerProgressCardMethods(registry, unused, unused);
  registerSessionGoalMethods(registry, unused, unused);
  registerQuestionMethods(registry, unused);
  registerTraceMethods(registry, unused, (key: string) => key);
  return registry;
}

describe("Control UI method scopes", () => {
  it("each action method's scope is the one the gateway asks for it", () => {
    const registry = gatewayMethods();
    const gatewayScopes = Object.fromEntries(Object.keys(METHOD_SCOPES).map((name) => [name, registry.get(name)?.definition.scope]));
    expect(gatewayScopes).toEqual(METHOD_SCOPES);
  });

  it("a scope is held as the gateway decides it: admin holds all, write holds read and talk, nothing else stands in", () => {
    const grants = [[], ["operator.read"], ["operator.write"], ["operator.admin"], ["operator.approvals"], ["operator.read", "operator.pairing"]];
    const required = ["operator.read", "operator.write", "operator.admin", "operator.talk", "operator.approvals", "operator.pairing", "operator.questions"];
    for (const granted of grants) for (const scope of required) expect(scopeHeld(granted, scope), `${granted} → ${scope}`).toBe(scopeSatisfied(granted, scope));
    expect(scopeHeld(["operator.read"], "operator.write")).toBe(false);
    expect(scopeHeld(["operator.write"], "operator.admin")).toBe(false);
    expect(scopeHeld(["operator.admin"], "operator.approvals")).toBe(true);
  });
});
