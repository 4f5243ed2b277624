/** The operator scopes of the gateway protocol: what a connection may be granted (config names them in `gateway.auth.identityScopes`). */
export const OPERATOR_SCOPES = [
  "operator.read",
  "operator.write",
  "operator.admin",
  "operator.approvals",
  "operator.pairing",
  "operator.talk",
  "operator.talk.secrets",
  "operator.questions",
] as const;
