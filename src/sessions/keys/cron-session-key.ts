/**
 * The session an isolated run of a cron job uses (`cron:<jobId>`, under the job's agent): each
 * run starts it over with a fresh transcript, so the transcripts of earlier runs are its reset
 * archives.
 */
export function buildCronRunSessionKey(jobId: string): string {
  return `cron:${jobId}`;
}

const CRON_RUN = /^agent:[^:]+:cron:[^:]+$/;

/** True for the canonical key (`agent:<id>:cron:<jobId>`) of a cron job's isolated run session. */
export function isCronRunSessionKey(sessionKey: string): boolean {
  return CRON_RUN.test(sessionKey);
}
