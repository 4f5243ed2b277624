import { CronToolRefusal, type CronToolAction, type CronToolHost } from "../agents/types.js";
import type { ChannelManager } from "../channels/channel-manager.js";
import { CHANNEL_IDS, defaultAccountId, isChannelId, resolveChannelAccounts, unnamedAccountFix } from "../channels/config/channel-accounts.js";
import { heartbeatVisibilityFor } from "../channels/config/heartbeat-visibility.js";
import { namesDirectChat, resolveOwnerRoute } from "../channels/routing/owner-route.js";
import type { OpenClawConfig } from "../config/index.js";
import { CronNotFoundError, CronUnavailableError, JobInputError, type CronService } from "../cron/cron-service.js";
import type { CronJobInput, CronJobPatch } from "../cron/job-input.js";
import type { ChatRoute, CronChannelPort, RouteCheck } from "../cron/ports.js";
import type { SessionStore } from "../sessions/store/index.js";
import { sessionChatRoute } from "./session-chat-route.js";

/**
 * Chat delivery for scheduled runs: the channel manager's `send`, whose ledger keeps each key to
 * one message. A reply whose account is restarting waits for it, as chat replies do.
 */
export function createCronChannelPort(deps: { channels: () => ChannelManager | undefined; config: () => OpenClawConfig; sessions: SessionStore }): CronChannelPort {
  return {
    check(route: ChatRoute): RouteCheck {
      if (!isChannelId(route.channel))
        return { ok: false, reason: `unknown channel "${route.channel}" (expected one of: ${CHANNEL_IDS.join(", ")})`, permanent: true, field: "channel" };
      const accounts = resolveChannelAccounts(deps.config(), route.channel);
      if (accounts.length === 0)
        return { ok: false, reason: `channel ${route.channel} is not configured (add channels.${route.channel}, or change the job's delivery)`, permanent: true, field: "channel" };
      const accountId = route.accountId?.toLowerCase() ?? defaultAccountId(deps.config(), route.channel);
      const account = accounts.find((a) => a.accountId === accountId);
      if (!account)
        return {
          ok: false,
          reason: `channel ${route.channel} has no account "${accountId}" (accounts: ${accounts.map((a) => a.accountId).join(", ")})`,
          permanent: true,
          field: "accountId",
        };
      // A disabled account, or one the running gateway refused to start (another account's token, a
      // missing one), stays down until the config changes.
      const down = !account.enabled
        ? `channel ${route.channel} account ${account.accountId} is disabled (enabled: false)`
        : deps.channels()?.refusal(route.channel, account.accountId);
      if (!down) return { ok: true };
      const reason = route.accountId ? down : `${down}; ${unnamedAccountFix(deps.config(), route.channel)}`;
      return { ok: false, reason, permanent: true, field: "accountId" };
    },
    async send(route, text, idempotencyKey) {
      const channels = deps.channels();
      if (!channels) throw new Error("the chat channels have not started");
      await channels.send({
        channel: route.channel,
        to: route.to,
        message: text,
        idempotencyKey,
        waitForAccount: true,
        ...(route.accountId ? { accountId: route.accountId } : {}),
        ...(route.threadId ? { threadId: route.threadId } : {}),
      });
    },
    lastRoute(sessionKey) {
      return sessionChatRoute(deps.sessions.get(sessionKey));
    },
    ownerRoute(sessionKey, accountId) {
      return resolveOwnerRoute(deps.config(), sessionChatRoute(deps.sessions.get(sessionKey)), accountId);
    },
    isDirect(route) {
      return route.chatType !== undefined ? route.chatType === "direct" : namesDirectChat(route.channel, route.to);
    },
    heartbeatVisibility(route) {
      return heartbeatVisibilityFor(deps.config(), route.channel, route.accountId);
    },
    deliverSessionRun(sessionKey, run) {
      void deps
        .channels()
        ?.deliverSessionRun(sessionKey, run)
        .catch(() => {});
    },
  };
}

/** The `cron` tool's host: the tool's actions on the gateway's CronService, jobs defaulting to the calling agent. */
export function createCronToolHost(cron: CronService): CronToolHost {
  const jobIdOf = (args: Record<string, unknown>): string => {
    if (typeof args.jobId !== "string" || args.jobId === "") throw new CronToolRefusal("jobId is required for this action");
    return args.jobId;
  };
  const act = async (action: CronToolAction, args: Record<string, unknown>, agentId: string, sessionKey: string | undefined): Promise<unknown> => {
    switch (action) {
      case "status":
        return cron.status();
      case "list":
        return cron.list({ enabled: "all" });
      case "get": {
        const job = cron.get(jobIdOf(args));
        if (!job) throw new CronToolRefusal(`no job ${JSON.stringify(args.jobId)}`);
        return job;
      }
      case "add": {
        if (typeof args.job !== "object" || args.job === null) throw new CronToolRefusal("add needs job: {name, schedule, sessionTarget, payload}");
        return cron.add(withCurrentSession({ ...(args.job as CronJobInput), agentId }, sessionKey));
      }
      case "update":
        if (typeof args.patch !== "object" || args.patch === null) throw new CronToolRefusal("update needs patch: the fields to change");
        return cron.update(jobIdOf(args), withCurrentSession(args.patch as CronJobPatch, sessionKey));
      case "remove":
        return cron.remove(jobIdOf(args));
      case "run":
        return cron.run(jobIdOf(args));
      case "runs":
        return cron.runs({ jobId: jobIdOf(args), limit: 20 });
      default:
        throw new CronToolRefusal(`unknown action ${JSON.stringify(action)}`);
    }
  };
  return {
    async call(action, args, agentId, sessionKey) {
      try {
        return await act(action, args, agentId, sessionKey);
      } catch (error) {
        if (error instanceof JobInputError || error instanceof CronNotFoundError) throw new CronToolRefusal(error.message);
        if (error instanceof CronUnavailableError) throw new CronToolRefusal(error.message, true);
        throw error;
      }
    },
  };
}

/** `sessionTarget: "current"` from the tool: the session the agent is talking in, named for good. */
function withCurrentSession<T extends { sessionTarget?: string }>(job: T, sessionKey: string | undefined): T {
  if (job.sessionTarget !== "current") return job;
  if (!sessionKey) throw new CronToolRefusal('sessionTarget "current" needs a calling session; name one with "session:<key>"');
  return { ...job, sessionTarget: `session:${sessionKey}` };
}
