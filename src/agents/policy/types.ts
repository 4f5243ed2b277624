/** The layers of the tool policy, in the order they are applied. */
export type PolicyStage = "profile" | "global" | "agent" | "owner" | "channel" | "chat" | "sender" | "provider" | "sandbox" | "subagent" | "run";

/** A chat's or a sender's tool rule and the config key it was found at (`allow` with `alsoAllow` added narrows; `deny` removes). */
export interface LocatedToolRule {
  source: string;
  allow?: readonly string[];
  alsoAllow?: readonly string[];
  deny?: readonly string[];
}

export interface ToolPolicyInput {
  /** The validated OpenClawConfig; read defensively because some tool keys are not typed yet. */
  config: unknown;
  agentId: string;
  provider?: string;
  /** The model id within the provider ("gpt-5"); "provider/model" is accepted too. */
  modelId?: string;
  /** The channel the request came from ("telegram", "discord", "webchat"…). */
  channel?: string;
  senderIsOwner: boolean;
  sandboxed?: boolean;
  /** How deep in a sub-agent tree the session is (0 or absent: a main session); see subagent-tool-limits. */
  spawnDepth?: number;
  /** Tools flagged `ownerOnly` at registration, on top of the built-in owner-only set. */
  ownerOnlyTools: string[];
  /** This run's own allow list (a scheduled job's `tools`), applied last; `source` names where it was set. */
  runAllow?: { source: string; entries: string[] };
  /** Tools this run may not use (an `agent` request's `disableMessageTool`), applied last with `runAllow`. */
  runDeny?: { source: string; entries: string[] };
  /** Every tool registered for this run, before any policy. */
  available: string[];
  /** The run answers its chat through the `message` tool: a sender who is not the owner keeps it (for that conversation only). */
  repliesThroughMessageTool?: boolean;
  /** The rule of the group, channel or topic the message came from (`tools` / `toolsBySender` there). */
  chatTools?: LocatedToolRule;
  /** The rule `tools.toolsBySender` (or the agent's) has for the channel sender. */
  senderTools?: LocatedToolRule;
}

/** Why one tool is not in the final set. */
export interface RemovedTool {
  tool: string;
  /** The config path (or built-in rule) that removed it, e.g. "agents.list[restricted].tools.deny". */
  layer: string;
  /** E.g. `matches deny entry "exec"`, `not in profile "minimal"`. */
  reason: string;
  stage: PolicyStage;
}

/** One application of one rule; `before`/`after` let an explanation show the narrowing. */
export interface PolicyStep {
  stage: PolicyStage;
  /** The config key this step read (e.g. `tools.byProvider.google`) or the built-in rule's name. */
  source: string;
  /** False when nothing applied (not configured, owner sender, not sandboxed); then after = before. */
  applied: boolean;
  /** What the rule said, for humans: "allow: read, write; deny: gateway", "not configured". */
  detail: string;
  before: string[];
  after: string[];
}

export interface EffectiveTools {
  /** The request the policy was evaluated for, echoed so an explanation is self-contained. */
  context: {
    agentId: string;
    provider?: string;
    modelId?: string;
    channel?: string;
    senderIsOwner: boolean;
    sandboxed: boolean;
  };
  /** Tools the model may see, in `available` order. */
  allowed: string[];
  steps: PolicyStep[];
  removed: RemovedTool[];
  /** Config that probably does not do what was meant: unknown groups, names of no tool, unknown profiles. */
  warnings: string[];
}
