import type { OutboundFile, OutboundTarget, SentMessage } from "../../src/channels/types.js";
import { markdownToMrkdwn } from "./mrkdwn.js";
import type { SlackWebClient } from "./slack-sdk.js";

/** Where Slack says a completed upload was shared: channel id → the messages that carry it. */
interface FileShares {
  public?: Record<string, Array<{ ts?: string }>>;
  private?: Record<string, Array<{ ts?: string }>>;
}

/**
 * Upload one file the way Slack asks today, through the SDK's `files.uploadV2`: an upload URL from
 * `files.getUploadURLExternal`, the bytes to that URL, then `files.completeUploadExternal` shares
 * the file in the chat (or thread) with the caption as its comment, in mrkdwn like every text we
 * post. The message id is the ts of the share when Slack already names it (it may share
 * asynchronously), else the file id.
 */
export async function uploadFile(api: SlackWebClient, target: OutboundTarget, file: OutboundFile): Promise<SentMessage> {
  const contents = {
    file: file.path,
    filename: file.fileName,
    ...(file.caption ? { initial_comment: markdownToMrkdwn(file.caption) } : {}),
  };
  const result = await api.filesUploadV2(target.threadId ? { ...contents, channel_id: target.chatId, thread_ts: target.threadId } : { ...contents, channel_id: target.chatId });
  const uploaded = result.files[0]?.files?.[0];
  if (!uploaded?.id) throw new Error("Slack files.completeUploadExternal answered without the file");
  const shares = uploaded.shares as FileShares | undefined;
  const ts = (shares?.public?.[target.chatId] ?? shares?.private?.[target.chatId])?.[0]?.ts;
  return { messageId: ts ?? uploaded.id };
}
