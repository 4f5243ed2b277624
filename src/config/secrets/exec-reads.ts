import { readExecSecrets, readExecSecretsAsync } from "../../infra/secrets/exec-secrets.js";
import type { SecretProviderSettings } from "../../infra/secrets/secret-provider.js";
import type { SecretOutcome } from "../../infra/secrets/secret-value.js";

/** One exec provider asked for its ids. */
export interface ExecRead {
  alias: string;
  provider: SecretProviderSettings;
  ids: string[];
}

/** How a load gets exec providers' answers: by running the resolver, or from answers already had. */
export type ExecSecretReads = (request: ExecRead, env: NodeJS.ProcessEnv) => Map<string, SecretOutcome>;

const keyOf = (request: ExecRead): string => JSON.stringify([request.alias, request.provider, [...request.ids].sort()]);

// The answers of the last run of each provider and set of ids, in this process: a view of the
// config (config.get) or an edit's check reads them instead of running the resolver again.
const answered = new Map<string, Map<string, SecretOutcome>>();

function remember(request: ExecRead, outcomes: Map<string, SecretOutcome>): Map<string, SecretOutcome> {
  // Only full answers: a failure is asked again next time.
  if ([...outcomes.values()].every((outcome) => "value" in outcome)) answered.set(keyOf(request), outcomes);
  return outcomes;
}

/** Runs the resolver, blocking (a start, a CLI command, a reload of the file). */
export const runExecReads: ExecSecretReads = (request, env) => remember(request, readExecSecrets(request.alias, request.provider, request.ids, env));

/** The last answer for the same provider and ids, else a run: for views and edits of a config the gateway already read. */
export const answeredExecReads: ExecSecretReads = (request, env) => answered.get(keyOf(request)) ?? runExecReads(request, env);

/** Notes what a load would run and runs nothing (its refs fail as pending): the first pass of prefetchExecReads. */
export function recordingExecReads(): { reads: ExecSecretReads; requests: ExecRead[] } {
  const requests: ExecRead[] = [];
  const reads: ExecSecretReads = (request) => {
    requests.push(request);
    return new Map(request.ids.map((id) => [id, { problem: "not read yet" }]));
  };
  return { reads, requests };
}

/** Runs these reads at once without blocking the event loop; the load that follows gets their answers. */
export async function prefetchExecReads(requests: readonly ExecRead[], env: NodeJS.ProcessEnv): Promise<ExecSecretReads> {
  const fetched = new Map<string, Map<string, SecretOutcome>>();
  await Promise.all(
    requests.map(async (request) => {
      fetched.set(keyOf(request), remember(request, await readExecSecretsAsync(request.alias, request.provider, request.ids, env)));
    }),
  );
  return (request, env2) => fetched.get(keyOf(request)) ?? runExecReads(request, env2);
}
