/**
 * Model failover: auth profiles (keys per provider, their order and cooldowns) and the
 * candidate chain a turn walks when a model fails. docs/models.md explains the rules.
 */
export { ModelFailover, sharedModelFailover, type TurnModelOutcome } from "./model-failover.js";
export { buildCandidateChain, type CandidateChain } from "./candidate-chain.js";
export { FailoverTurn, DEFAULT_OVERLOAD_RETRY, type AttemptRecord, type AttemptReport, type OverloadRetry } from "./failover-turn.js";
export { AuthProfileStore, authProfilesPath, parseProfilesFile } from "./auth-profile-store.js";
export { failoverReason, type FailoverReason } from "./failure-reason.js";
export { maskSecret, type AuthProfile } from "./profile-sources.js";
export { modelsAuthStatus, type AuthStatus, type AuthStatusProvider, type AuthStatusProfile } from "./auth-status.js";
