/**
 * Every error a tool can hand the model, in one table: a stable code (part of the wire: the model
 * and the tests read it), the message built from the facts of the failure, and what to do instead.
 * A tool returns `toolError(TOOL_ERRORS.someEntry(...facts))`; a new failure gets a new entry here.
 */

/** The codes a tool result's `error` field may carry. */
export type ToolErrorCode =
  // The call itself
  | "INVALID_ARGUMENT"
  | "UNKNOWN_TOOL"
  | "TOOL_BLOCKED"
  | "TOOL_FAILED"
  | "RUN_STOPPED"
  | "ABORTED"
  // Files and the workspace
  | "PATH_INVALID"
  | "PATH_OUTSIDE_WORKSPACE"
  | "PATH_HARD_LINKED"
  | "FILE_NOT_FOUND"
  | "FILE_EXISTS"
  | "IS_A_DIRECTORY"
  | "NOT_A_DIRECTORY"
  | "NOT_A_REGULAR_FILE"
  | "PERMISSION_DENIED"
  | "FILE_ERROR"
  | "FILE_TOO_LARGE"
  | "IMAGE_TOO_LARGE"
  | "NOT_AN_IMAGE"
  | "URL_REFUSED_IN_SANDBOX"
  | "IMAGE_NOT_DESCRIBED"
  | "TOO_MANY_IMAGES"
  | "BINARY_FILE"
  | "OFFSET_OUT_OF_RANGE"
  | "EDIT_NO_MATCH"
  | "EDIT_AMBIGUOUS"
  | "EDIT_NO_CHANGE"
  | "PATCH_PARSE_ERROR"
  | "PATCH_HUNK_FAILED"
  | "PATCH_WRITE_FAILED"
  // Image generation (image_generate)
  | "IMAGE_GENERATION_UNAVAILABLE"
  | "IMAGE_PROMPT_REFUSED"
  | "IMAGE_PROVIDER_AUTH"
  | "IMAGE_GENERATION_TIMEOUT"
  | "IMAGE_PROVIDER_FAILED"
  // Text to speech (tts)
  | "TTS_UNAVAILABLE"
  | "TTS_PROVIDER_AUTH"
  | "TTS_TIMEOUT"
  | "TTS_PROVIDER_FAILED"
  // Shell commands and background processes
  | "WORKDIR_NOT_FOUND"
  | "EXEC_DENIED"
  | "PROCESS_UNAVAILABLE"
  | "SESSION_NOT_FOUND"
  // The web
  | "INVALID_URL"
  | "WEB_SEARCH_UNAVAILABLE"
  // xAI's server-side tools (x_search, code_execution)
  | "XAI_TOOL_UNAVAILABLE"
  | "XAI_PROVIDER_AUTH"
  | "XAI_RATE_LIMITED"
  | "XAI_TIMEOUT"
  | "XAI_PROVIDER_FAILED"
  | "URL_SCHEME_NOT_ALLOWED"
  | "PRIVATE_ADDRESS_BLOCKED"
  | "TOO_MANY_REDIRECTS"
  | "INVALID_REDIRECT"
  | "HTTP_ERROR"
  | "UNSUPPORTED_CONTENT_TYPE"
  | "FETCH_TIMEOUT"
  | "DNS_FAILED"
  | "FETCH_FAILED"
  // The browser
  | "BROWSER_UNAVAILABLE"
  | "BROWSER_NOT_SUPPORTED"
  | "BROWSER_START_FAILED"
  | "BROWSER_TAB_NOT_FOUND"
  | "BROWSER_TABS_FULL"
  | "BROWSER_STALE_REF"
  | "BROWSER_ACTION_FAILED"
  // Sessions and sub-agents (refusals of the session tools)
  | "SESSIONS_UNAVAILABLE"
  | "SESSION_NOT_VISIBLE"
  | "SESSION_SEARCH_UNAVAILABLE"
  | "AMBIGUOUS_LABEL"
  | "SEND_TO_SELF"
  | "SEND_FAILED"
  | "A2A_LIMIT"
  | "UNKNOWN_AGENT"
  | "AGENT_NOT_ALLOWED"
  | "SUBAGENTS_DISABLED"
  | "SPAWN_DEPTH_EXCEEDED"
  | "TOO_MANY_CHILDREN"
  | "SANDBOX_UNAVAILABLE"
  | "RUNTIME_UNAVAILABLE"
  | "INVALID_ATTACHMENTS"
  | "SPAWN_FAILED"
  | "GATEWAY_STOPPING"
  | "SUBAGENT_NOT_FOUND"
  | "SUBAGENT_ENDED"
  | "STEER_RATE_LIMITED"
  | "STEER_FAILED"
  | "THREAD_UNAVAILABLE"
  | "THREAD_FAILED"
  | "NOTHING_TO_WAIT_FOR"
  // The gateway tool
  | "GATEWAY_UNAVAILABLE"
  | "CONFIG_UNREADABLE"
  | "CONFIG_PATH_NOT_FOUND"
  | "CONFIG_TOO_LARGE"
  | "CONFIG_SCHEMA_PATH_NOT_FOUND"
  // Heartbeat turns
  | "NOT_A_HEARTBEAT"
  | "HEARTBEAT_ALREADY_REPORTED"
  | "PROGRESS_CARD_INVALID"
  | "GOAL_INVALID"
  | "GOAL_NOT_CHANGED"
  | "GOAL_UNAVAILABLE"
  | "PROGRESS_CARD_UNAVAILABLE"
  // External ACP agents (sessions_spawn with runtime "acp")
  | "ACP_DISABLED"
  | "ACP_AGENT_UNKNOWN"
  | "ACP_AGENT_NOT_ALLOWED"
  | "ACP_COMMAND_NOT_FOUND"
  | "ACP_SESSION_FAILED"
  // Scheduled jobs (the cron tool)
  | "ASK_USER_UNAVAILABLE"
  | "ASK_USER_INVALID"
  | "ASK_USER_REFUSED"
  | "CRON_UNAVAILABLE"
  | "CRON_REFUSED"
  // Chat channels (the message tool)
  | "CHANNELS_UNAVAILABLE"
  | "CHANNEL_SEND_FAILED"
  | "MESSAGE_BUTTONS_INVALID"
  | "MESSAGE_TARGET_OWNER_ONLY"
  | "MESSAGE_ACTION_INVALID"
  | "CHANNEL_ACTION_FAILED"
  // Memory (memory_search, memory_get)
  | "MEMORY_UNAVAILABLE"
  | "NOT_A_MEMORY_FILE";

/** A failure as the model reads it. */
export interface CodedToolError {
  code: ToolErrorCode;
  message: string;
  suggestion?: string;
}

/** A refusal always says what to do instead. */
export type ToolRefusal = Required<CodedToolError>;

type Text<A extends unknown[]> = string | ((...facts: A) => string);

function coded<A extends unknown[]>(code: ToolErrorCode, message: Text<A>, suggestion: Text<A>): (...facts: A) => ToolRefusal;
function coded<A extends unknown[]>(code: ToolErrorCode, message: Text<A>): (...facts: A) => CodedToolError;
function coded<A extends unknown[]>(code: ToolErrorCode, message: Text<A>, suggestion?: Text<A>): (...facts: A) => CodedToolError {
  return (...facts) => {
    const error: CodedToolError = { code, message: typeof message === "string" ? message : message(...facts) };
    const advice = typeof suggestion === "function" ? suggestion(...facts) : suggestion;
    if (advice) error.suggestion = advice;
    return error;
  };
}

const PROCESS_LIST_HINT = 'Call process with action "list" to see the sessions.';
const REACHABLE_HINT = "Call sessions_list to see the sessions you may reach.";
const WITHOUT_THREAD = "Spawn without thread; its result still comes back here.";

export const TOOL_ERRORS = {
  // ── The call itself (the loop and its hooks) ────────────────────────────────────────────────
  unknownTool: coded(
    "UNKNOWN_TOOL",
    (name: string, _available: string) => `no tool named "${name}" is available`,
    (_name, available) => `Use one of: ${available || "(none)"}.`,
  ),
  argumentsInvalid: coded(
    "INVALID_ARGUMENT",
    (where: string, problem: string) => `${where}: ${problem}`,
    "Fix the arguments to match the tool's parameter schema and call it again.",
  ),
  argumentsUnreadable: coded(
    "INVALID_ARGUMENT",
    (name: string, problem: string) => `the ${name} call's ${problem}; it did not run`,
    "Call the tool again with its arguments as one JSON object matching its parameter schema.",
  ),
  toolBlocked: coded("TOOL_BLOCKED", (reason: string) => reason, "Do not retry this call; choose another approach or ask the user."),
  runStopped: coded("RUN_STOPPED", (reason: string) => reason),
  toolFailed: coded("TOOL_FAILED", (name: string, problem: string) => `${name} failed: ${problem}`),
  abortedWhileRunning: coded("ABORTED", "the run was stopped while this tool was running"),
  abortedBeforeRunning: coded("ABORTED", "the run stopped before this tool ran"),

  // ── Workspace paths ─────────────────────────────────────────────────────────────────────────
  pathInvalid: coded(
    "PATH_INVALID",
    (problem: string, _root: string) => problem,
    (_problem, root) => workspaceAdvice(root),
  ),
  pathOutsideWorkspace: coded(
    "PATH_OUTSIDE_WORKSPACE",
    (problem: string, _root: string) => problem,
    (_problem, root) => workspaceAdvice(root),
  ),
  pathHardLinked: coded(
    "PATH_HARD_LINKED",
    (file: string, links: number) => `"${file}" has ${links} hard links: its content may be a file outside the workspace, so the file tools neither read nor write it.`,
    "Ask the user to replace it with a copy (cp --remove-destination) if it belongs to the workspace.",
  ),

  // ── File system failures (read, write, edit, apply_patch) ───────────────────────────────────
  fileNotFound: coded("FILE_NOT_FOUND", (file: string) => `"${file}" does not exist.`, "Check the path; list the directory with exec (ls) if unsure."),
  isADirectory: coded("IS_A_DIRECTORY", (file: string) => `"${file}" is a directory, not a file.`, "List directories with exec (ls); pass a file path here."),
  notADirectory: coded("NOT_A_DIRECTORY", (file: string) => `A parent of "${file}" is a file, not a directory.`, "Check the path with exec (ls)."),
  notARegularFile: coded(
    "NOT_A_REGULAR_FILE",
    (file: string) => `"${file}" is not a regular file (a pipe, socket or device).`,
    "Only regular files can be read or changed with this tool; inspect it with exec (ls -l) if needed.",
  ),
  permissionDenied: coded("PERMISSION_DENIED", (file: string) => `Permission denied for "${file}".`, "Choose another file or ask the user to fix the permissions."),
  fileError: coded("FILE_ERROR", (file: string, problem: string) => `"${file}": ${problem}`),

  // ── read ────────────────────────────────────────────────────────────────────────────────────
  fileTooLarge: coded(
    "FILE_TOO_LARGE",
    (file: string, size: string, limit: string) => `"${file}" is ${size}; read loads at most ${limit}.`,
    "Search it with exec (rg, grep) or print a slice with exec (sed -n '100,200p').",
  ),
  readBinaryFile: coded(
    "BINARY_FILE",
    (file: string) => `"${file}" is a binary file (it contains NUL bytes), not text.`,
    "Inspect it with exec (file, xxd | head, strings) instead.",
  ),
  offsetOutOfRange: coded(
    "OFFSET_OUT_OF_RANGE",
    (offset: number, file: string, lines: number) => `offset ${offset} is past the end of "${file}", which has ${lines} lines.`,
    (_offset, _file, lines) => `Use an offset between 1 and ${lines}.`,
  ),
  notAnImage: coded(
    "NOT_AN_IMAGE",
    (source: string) => `${source} is not a PNG, JPEG, GIF or WebP image.`,
    "Check the path or URL; for a text file or a web page use read or web_fetch.",
  ),
  imageNotDescribed: coded(
    "IMAGE_NOT_DESCRIBED",
    (source: string, failures: string) => `${source} could not be described for this model, which cannot see images: ${failures}.`,
    "Tell the user the image model failed; the owner can check tools.media or agents.defaults.imageModel.",
  ),
  tooManyImages: coded("TOO_MANY_IMAGES", (count: number, max: number) => `${count} images were asked for; one call views at most ${max}.`, "View them in several calls."),
  imagesTooLarge: coded(
    "IMAGE_TOO_LARGE",
    (total: string, limit: string) => `These images come to ${total}; one call views at most ${limit}.`,
    "View them in several calls, or make smaller copies with exec first.",
  ),
  viewImageUrlSandboxed: coded(
    "URL_REFUSED_IN_SANDBOX",
    "A sandboxed run views workspace images only, not URLs.",
    "Download the image into the workspace with exec, then view that path.",
  ),
  imageTooLarge: coded(
    "IMAGE_TOO_LARGE",
    (file: string, size: string, limit: string) => `"${file}" is a ${size} image; at most ${limit} can be viewed.`,
    "Make a smaller copy with exec (e.g. ImageMagick: convert in.png -resize 1600x1600 out.png) and read that.",
  ),

  // ── edit ────────────────────────────────────────────────────────────────────────────────────
  editOldTextEmpty: coded("INVALID_ARGUMENT", "oldText is empty.", "Copy the exact text to replace from the file (read it first); to create a file use write."),
  editNewTextMissing: coded("INVALID_ARGUMENT", "newText is missing.", 'Pass the replacement text (an empty string "" deletes oldText).'),
  editBinaryFile: coded("BINARY_FILE", (file: string) => `"${file}" is a binary file; edit changes text files only.`, "Use exec with a suitable program instead."),
  editNoMatch: coded(
    "EDIT_NO_MATCH",
    (file: string) => `oldText was not found in "${file}".`,
    "Read the file again and copy oldText exactly as it is now, including indentation and line breaks.",
  ),
  editAmbiguous: coded(
    "EDIT_AMBIGUOUS",
    (file: string, matches: number) => `oldText occurs ${matches} times in "${file}"; it must occur exactly once.`,
    "Include more surrounding lines in oldText so that it matches only the place you mean.",
  ),
  editNoChange: coded("EDIT_NO_CHANGE", "oldText and newText are identical; nothing would change.", "Pass the text you want in newText."),

  // ── apply_patch ─────────────────────────────────────────────────────────────────────────────
  patchMalformed: coded("PATCH_PARSE_ERROR", (where: string) => `The patch is malformed at ${where}`, "Fix that line and send the whole patch again."),
  patchAddExisting: coded(
    "FILE_EXISTS",
    (file: string) => `Add File: "${file}" already exists. Nothing was changed.`,
    "Use *** Update File for an existing file (or *** Delete File before adding it anew).",
  ),
  patchFileMissing: coded(
    "FILE_NOT_FOUND",
    (section: string, file: string) => `${section}: "${file}" does not exist. Nothing was changed.`,
    "Check the path; use *** Add File to create a file.",
  ),
  patchHunkMismatch: coded(
    "PATCH_HUNK_FAILED",
    (file: string, hunk: number, line: number, reason: string) =>
      `Update File: "${file}", hunk ${hunk} (patch line ${line}) does not match the file: ${reason}\nNothing was changed.`,
    "Read the file again and rebuild that hunk from its current content, with enough unchanged context lines.",
  ),
  patchMoveOntoExisting: coded(
    "FILE_EXISTS",
    (file: string) => `Move to: "${file}" already exists. Nothing was changed.`,
    "Move to a new path, or delete the destination first in the same patch.",
  ),
  patchWriteFailed: coded(
    "PATCH_WRITE_FAILED",
    (file: string, problem: string) => `Writing "${file}" failed (${problem}); the files already written were restored.`,
    "Check the file's permissions or the disk, then apply the patch again.",
  ),

  // ── image_generate ──────────────────────────────────────────────────────────────────────────
  imageGenerationUnavailable: coded(
    "IMAGE_GENERATION_UNAVAILABLE",
    (problem: string) => `No image can be generated here: ${problem}.`,
    "Tell the user; the owner sets an image model (agents.defaults.mediaModels.image) or an OpenAI key.",
  ),
  imagePromptRefused: coded(
    "IMAGE_PROMPT_REFUSED",
    (failures: string) => `No image was made: ${failures}.`,
    "Do not send this prompt again unchanged. Tell the user it was refused; rephrase it without what was refused only if that still gives them what they asked for.",
  ),
  imageProviderAuth: coded(
    "IMAGE_PROVIDER_AUTH",
    (failures: string) => `No image was made: ${failures}.`,
    "Tell the user image generation has no working API key; the owner sets the key named above.",
  ),
  imageGenerationTimeout: coded(
    "IMAGE_GENERATION_TIMEOUT",
    (failures: string) => `No image was made: ${failures}.`,
    "Try again with fewer images, a smaller size or lower quality, or a larger timeoutMs (at most 600000); the owner can raise agents.defaults.mediaModels.image.timeoutMs.",
  ),
  imageProviderFailed: coded(
    "IMAGE_PROVIDER_FAILED",
    (failures: string) => `No image was made: ${failures}.`,
    "An HTTP 400 names an argument this model does not take (change size, quality, background or model); a 429 or 5xx may pass, so try again later; else tell the user why.",
  ),
  imageReferenceUrl: coded(
    "INVALID_ARGUMENT",
    (source: string) => `"${source}" is a URL; reference images are workspace files here.`,
    "Save the image into the workspace first (for example with exec and curl -o, if allowed), then pass its path.",
  ),
  imageReferenceNotAnImage: coded(
    "NOT_AN_IMAGE",
    (file: string) => `"${file}" is not a PNG, JPEG or WebP image.`,
    "A reference image for an edit is a PNG, JPEG or WebP file in the workspace.",
  ),
  imageReferenceTooLarge: coded(
    "IMAGE_TOO_LARGE",
    (file: string, size: string, limit: string) => `"${file}" is ${size}; a reference image may be at most ${limit}.`,
    "Make a smaller copy with exec (e.g. ImageMagick: convert in.png -resize 2048x2048 out.png) and pass that.",
  ),
  imageNamesTaken: coded("FILE_EXISTS", (file: string) => `"${file}" and the names numbered after it are all taken.`, "Pass another filename."),

  // ── tts ─────────────────────────────────────────────────────────────────────────────────────
  ttsUnavailable: coded(
    "TTS_UNAVAILABLE",
    (problem: string) => `No speech can be made here: ${problem}.`,
    "Answer in text and tell the user; the owner sets up text-to-speech (the tts config block).",
  ),
  ttsTextInvalid: coded("INVALID_ARGUMENT", (problem: string) => `text: ${problem}.`, "Pass the words to speak in text, shorter if the limit was passed (or in several calls)."),
  ttsProviderAuth: coded(
    "TTS_PROVIDER_AUTH",
    (provider: string, reason: string) => `No audio was made: ${provider}: ${reason}.`,
    "Answer in text and tell the user text-to-speech has no working API key; the owner sets the provider's key.",
  ),
  ttsTimeout: coded(
    "TTS_TIMEOUT",
    (provider: string, reason: string) => `No audio was made: ${provider}: ${reason}.`,
    "Try again with shorter text or a larger timeoutMs (at most 600000); else answer in text.",
  ),
  ttsProviderFailed: coded(
    "TTS_PROVIDER_FAILED",
    (provider: string, reason: string) => `No audio was made: ${provider}: ${reason}.`,
    "A 429 or 5xx may pass, so try again later; else answer in text and tell the user why.",
  ),

  // ── exec and process ────────────────────────────────────────────────────────────────────────
  execCommandEmpty: coded("INVALID_ARGUMENT", "command is empty.", 'Pass the shell command to run, e.g. {"command": "ls -la"}.'),
  execWorkdirMissing: coded(
    "WORKDIR_NOT_FOUND",
    (workdir: string) => `workdir "${workdir}" is not an existing directory.`,
    "Omit workdir to run in the workspace root, or create the directory first.",
  ),
  execDenied: coded("EXEC_DENIED", (reason: string) => reason, "Do not retry the same command. Ask the user to approve it, or reach the goal another way (read/edit for files)."),
  execAbortedBeforeStart: coded("ABORTED", "The run was stopped before the command started.", "Nothing ran; no action is needed."),
  processUnavailable: coded("PROCESS_UNAVAILABLE", "Background processes are not available in this runtime.", "Run commands in the foreground with exec (without background)."),
  processNeedsSessionId: coded("INVALID_ARGUMENT", (action: string) => `action "${action}" needs a sessionId.`, PROCESS_LIST_HINT),
  processSessionNotFound: coded(
    "SESSION_NOT_FOUND",
    (sessionId: string) =>
      `No background session "${sessionId}" in this conversation (each conversation sees only the sessions it started; finished ones are kept for 30 minutes).`,
    'Call process with action "list" to see the sessions that exist.',
  ),
  processUnknownAction: coded("INVALID_ARGUMENT", (action: string) => `Unknown action "${action}".`, 'Use one of "list", "poll", "log", "kill".'),

  // ── web_fetch ───────────────────────────────────────────────────────────────────────────────
  invalidUrl: coded("INVALID_URL", (url: string) => `"${url}" is not a valid URL.`, "Pass an absolute URL such as https://example.com/page."),
  tooManyRedirects: coded(
    "TOO_MANY_REDIRECTS",
    (url: string, max: number, last: string) => `${url} redirected more than ${max} times (last to ${last}).`,
    "The URL probably loops; try the final address directly or another source.",
  ),
  invalidRedirect: coded("INVALID_REDIRECT", (url: string, location: string) => `${url} redirected to an invalid address: ${location}.`),
  urlSchemeNotAllowed: coded(
    "URL_SCHEME_NOT_ALLOWED",
    (scheme: string, url: string) => `${scheme}: URLs cannot be fetched (${url}); only http and https.`,
    "Use an http(s) URL. For workspace files use read.",
  ),
  httpError: coded(
    "HTTP_ERROR",
    (url: string, status: string, _advice: string) => `${url} answered HTTP ${status}.`,
    (_url, _status, advice) => advice,
  ),
  notTextContent: coded(
    "UNSUPPORTED_CONTENT_TYPE",
    (url: string, mimeType: string) => `${url} returned ${mimeType}, which cannot be shown as text.`,
    "web_fetch reads pages and text. For other files, download them with exec (e.g. curl -o) if allowed.",
  ),
  binaryContent: coded("UNSUPPORTED_CONTENT_TYPE", (url: string) => `${url} returned binary data.`, "web_fetch reads pages and text only."),
  fetchTimeout: coded("FETCH_TIMEOUT", (url: string) => `${url} did not answer within the time limit.`, "Try again later or use another source."),
  fetchAborted: coded("ABORTED", (url: string) => `Fetching ${url} was stopped.`, "The run was stopped; no action is needed."),
  dnsFailed: coded("DNS_FAILED", (host: string) => `The host ${host} could not be found.`, "Check the spelling of the domain."),
  xaiToolUnavailable: coded("XAI_TOOL_UNAVAILABLE", (tool: string) => `${tool} is not set up in this runtime (it needs an xAI key).`, "Answer without it, or use another tool."),
  xaiProviderAuth: coded(
    "XAI_PROVIDER_AUTH",
    (tool: string, problem: string, keyHint: string) => `${tool} was refused by xAI (${problem}): check the xAI key (${keyHint}).`,
    "Do not retry; tell the user the xAI key was refused and the owner should check it.",
  ),
  xaiRateLimited: coded(
    "XAI_RATE_LIMITED",
    (tool: string, problem: string) => `${tool} was rate limited by xAI (${problem}).`,
    "Wait before calling it again, or answer without it.",
  ),
  xaiTimeout: coded(
    "XAI_TIMEOUT",
    (tool: string, problem: string, _setting: string) => `${tool} did not finish: ${problem}.`,
    (_tool, _problem, setting) => `Try a simpler request; the owner can raise ${setting}.`,
  ),
  xaiProviderFailed: coded(
    "XAI_PROVIDER_FAILED",
    (tool: string, problem: string) => `${tool} failed: ${problem}.`,
    "A 5xx may pass, so try again later; else answer without it and tell the user why.",
  ),
  webSearchUnavailable: coded("WEB_SEARCH_UNAVAILABLE", "No web search provider is set up in this runtime.", "Answer from what you know, or fetch a known URL with web_fetch."),
  fetchFailed: coded("FETCH_FAILED", (url: string, problem: string) => `Fetching ${url} failed: ${problem}`, "Check the URL or try another source."),
  privateAddressBlocked: coded(
    "PRIVATE_ADDRESS_BLOCKED",
    (url: string, address: string) =>
      `${url} points to ${address}, a private, loopback or link-local address or one of this host's own; web_fetch only reaches public addresses of other hosts.`,
    "Fetch a public URL instead. To reach a local service, use exec (e.g. curl) if the user allows it.",
  ),

  // ── browser ─────────────────────────────────────────────────────────────────────────────────
  browserUnavailable: coded("BROWSER_UNAVAILABLE", (problem: string) => `The browser is not available here: ${problem}.`, "Use web_fetch to read pages, or tell the user."),
  browserNotSupported: coded(
    "BROWSER_NOT_SUPPORTED",
    (field: string, problem: string) => `${field}: ${problem}.`,
    "Use one of the supported actions on the managed openclaw browser.",
  ),
  browserStartFailed: coded(
    "BROWSER_START_FAILED",
    (problem: string) => `The browser did not start: ${problem}.`,
    "Tell the user; the owner fixes the browser.* config named above. Use web_fetch meanwhile.",
  ),
  browserTabNotFound: coded("BROWSER_TAB_NOT_FOUND", (problem: string) => `${problem}.`, "Call tabs to see the open tabs, or open one."),
  browserTabsFull: coded("BROWSER_TABS_FULL", (problem: string) => `${problem}.`, "Close a tab you no longer need (see tabs), then open again; or navigate an open tab."),
  browserStaleRef: coded("BROWSER_STALE_REF", (problem: string) => `${problem}.`, "Take a new snapshot of the tab and use a ref from it."),
  browserActionFailed: coded(
    "BROWSER_ACTION_FAILED",
    (action: string, problem: string) => `browser ${action} failed: ${problem}`,
    "Take a snapshot to see the page as it is now, then try again or another way.",
  ),
  browserAddressBlocked: coded(
    "PRIVATE_ADDRESS_BLOCKED",
    (url: string, why: string) => `The browser may not load ${url}: ${why}; it only reaches public addresses of other hosts.`,
    "Use a public URL. The owner can allow a host with browser.ssrfPolicy.allowedHostnames if it is trusted.",
  ),

  // ── Session tools: reaching other sessions ─────────────────────────────────────────────────
  sessionsUnavailable: coded("SESSIONS_UNAVAILABLE", "Session tools only work inside the gateway, in a turn of a session.", "Do the work in this turn instead."),
  sessionKeyInvalid: coded("INVALID_ARGUMENT", (problem: string) => problem, "Use a key from sessions_list."),
  sessionNotFound: coded("SESSION_NOT_FOUND", (key: string) => `No session ${key}.`, "Call sessions_list to see the sessions that exist."),
  sendTargetMissing: coded("INVALID_ARGUMENT", "Name the target: sessionKey, label or agentId.", "Call sessions_list to find it."),
  labelNotFound: coded("SESSION_NOT_FOUND", (label: string) => `No session you may see is labelled "${label}".`, "Call sessions_list to find it."),
  labelAmbiguous: coded("AMBIGUOUS_LABEL", (label: string, keys: string) => `Several sessions are labelled "${label}": ${keys}.`, "Use sessionKey instead."),
  sendToSelf: coded("SEND_TO_SELF", "That is your own session.", "Name another session (see sessions_list)."),
  sendMessageEmpty: coded("INVALID_ARGUMENT", "message is empty.", "Say something."),
  exchangeLimit: coded(
    "A2A_LIMIT",
    (limit: number) => `This chain of agent-to-agent messages reached its limit (${limit} messages); nothing more is sent.`,
    "Finish your turn without sending.",
  ),
  sendNotAccepted: coded("SEND_FAILED", (why: string) => `The message was not accepted (${why}).`, "Try again later."),
  otherAgentHidden: coded(
    "SESSION_NOT_VISIBLE",
    (target: string, agent: string) =>
      `Session ${target} belongs to agent "${agent}"; reaching other agents' sessions needs tools.sessions.visibility "all" and tools.agentToAgent.enabled.`,
    REACHABLE_HINT,
  ),
  agentNotInA2aAllow: coded("SESSION_NOT_VISIBLE", (agent: string) => `Agent "${agent}" is not in tools.agentToAgent.allow.`, REACHABLE_HINT),
  outsideTree: coded(
    "SESSION_NOT_VISIBLE",
    (target: string) => `Session ${target} is outside your tree (tools.sessions.visibility is "tree": you see your own session and the ones you spawned).`,
    REACHABLE_HINT,
  ),
  selfOnly: coded("SESSION_NOT_VISIBLE", 'Only your own session is visible (tools.sessions.visibility is "self").', "Work in your own session."),

  // ── Session tools: sessions_search ──────────────────────────────────────────────────────────
  searchQueryEmpty: coded("INVALID_ARGUMENT", "query is empty.", 'Pass the words to look for, e.g. {"query": "invoice number"}.'),
  searchQueryNoWords: coded(
    "INVALID_ARGUMENT",
    (query: string) => `query ${JSON.stringify(query)} has no word to search for (no letter or digit).`,
    "Search for words that occur in the messages.",
  ),
  searchUnavailable: coded(
    "SESSION_SEARCH_UNAVAILABLE",
    (reason: string) => `Session search is unavailable: ${reason}.`,
    "Look through sessions with sessions_list and sessions_history instead.",
  ),

  // ── Session tools: sub-agents ───────────────────────────────────────────────────────────────
  subagentsDisabled: coded("SUBAGENTS_DISABLED", "Sub-agents are turned off (agents.defaults.subagents.maxSpawnDepth is 0).", "Do the task yourself in this turn."),
  spawnTooDeep: coded(
    "SPAWN_DEPTH_EXCEEDED",
    (depth: number, childDepth: number, max: number) =>
      `sessions_spawn is not allowed at depth ${depth}: a child here would be at depth ${childDepth}, and the limit is ${max} (agents.defaults.subagents.maxSpawnDepth).`,
    "You are a leaf worker: do the work yourself and report the result.",
  ),
  tooManyChildren: coded(
    "TOO_MANY_CHILDREN",
    (active: number, max: number) => `This session already has ${active} unfinished sub-agents; the limit is ${max} (agents.defaults.subagents.maxChildrenPerAgent).`,
    "Wait: each result arrives as a message when that sub-agent finishes. Or kill one with the subagents tool.",
  ),
  unknownAgent: coded(
    "UNKNOWN_AGENT",
    (agent: string, _known: string) => `agentId "${agent}" is not a configured agent.`,
    (_agent, known) => `Use one of: ${known} — or leave agentId out to spawn as yourself.`,
  ),
  agentNotInAllowAgents: coded(
    "AGENT_NOT_ALLOWED",
    (agent: string, requester: string, allowed: string) =>
      `agentId is not allowed for sessions_spawn: "${agent}" is not in the allowAgents of agent "${requester}" (allowed: ${allowed}).`,
    (agent, requester) => `Leave agentId out to spawn as "${requester}", or ask the owner to add "${agent}" to agents.entries.${requester}.subagents.allowAgents.`,
  ),
  spawnAgentNotInA2aAllow: coded(
    "AGENT_NOT_ALLOWED",
    (agent: string, _requester: string) => `agentId is not allowed for sessions_spawn: "${agent}" is not in tools.agentToAgent.allow.`,
    (_agent, requester) => `Leave agentId out to spawn as "${requester}".`,
  ),
  nothingToWaitFor: coded(
    "NOTHING_TO_WAIT_FOR",
    "No sub-agent of this session is running or has a result still to come here, so nothing would resume this session after a yield.",
    "Finish this turn normally: give your answer, or spawn the work first and then yield.",
  ),
  sandboxUnavailable: coded(
    "SANDBOX_UNAVAILABLE",
    (why: string) => `sandbox "require" cannot be met: ${why}.`,
    'Spawn with sandbox "inherit" if the task is safe to run unsandboxed, or ask the owner to set agents.defaults.sandbox.mode (docs/security.md).',
  ),
  sandboxBackendMissing: coded(
    "SANDBOX_UNAVAILABLE",
    (backend: string, hint: string) =>
      `this run is sandboxed but its backend "${backend}" is not installed, so the command did not run (it never runs unsandboxed instead); the owner must ${hint}.`,
    "Tell the user the sandbox backend is missing; do not retry the command.",
  ),
  sandboxBindRefused: coded(
    "SANDBOX_UNAVAILABLE",
    (why: string) => `this run is sandboxed and its configuration was refused, so the command did not run: ${why}.`,
    "Tell the user the sandbox's binds need changing; do not retry the command.",
  ),
  acpRuntimeUnavailable: coded("RUNTIME_UNAVAILABLE", 'runtime "acp" is not available in this gateway.', 'Leave runtime out (or use "subagent").'),
  acpOnlyOptions: coded("INVALID_ARGUMENT", (names: string) => `${names} only apply to runtime "acp".`, 'Leave them out, or spawn with runtime "acp".'),
  acpSandboxRequired: coded(
    "SANDBOX_UNAVAILABLE",
    'sandbox "require" cannot be met: ACP agents run on the host, outside any sandbox.',
    'Spawn with runtime "subagent", or without sandbox "require" if the task is safe on the host.',
  ),
  acpFromSandboxedSession: coded(
    "SANDBOX_UNAVAILABLE",
    (why: string) => `This session runs sandboxed (${why}); ACP agents run on the host, outside any sandbox.`,
    'Spawn with runtime "subagent", or start the ACP agent from a session that is not sandboxed.',
  ),
  acpEmbeddedOnlyOptions: coded(
    "INVALID_ARGUMENT",
    (names: string) =>
      `${names} cannot be used with runtime "acp" (the ACP agent chooses its own model, and its turns are limited by agents.defaults.subagents.runTimeoutSeconds).`,
    (names) => `Leave ${names} out.`,
  ),
  acpForkUnsupported: coded(
    "INVALID_ARGUMENT",
    'context "fork" cannot be used with runtime "acp": an ACP agent keeps its own session and cannot be handed this conversation.',
    'Put what it needs to know in the task, or spawn with runtime "subagent".',
  ),
  acpDisabled: coded("ACP_DISABLED", "ACP agents are disabled on this gateway.", "Set acp.enabled: true and configure an agent under acp.agents (see docs/acp.md)."),
  acpNoAgentNamed: coded(
    "ACP_AGENT_UNKNOWN",
    (_known: string) => "No ACP agent was named and acp.defaultAgent is not set.",
    (known) => `Name one of: ${known}.`,
  ),
  acpAgentUnknown: coded(
    "ACP_AGENT_UNKNOWN",
    (agent: string, _known: string) => `ACP agent \`${agent}\` is not configured.`,
    (agent, known) => `Add it under acp.agents.${agent}.command, or use one of: ${known}.`,
  ),
  acpAgentNotAllowed: coded(
    "ACP_AGENT_NOT_ALLOWED",
    (agent: string, _allowed: string) => `ACP agent \`${agent}\` is not in acp.allowedAgents.`,
    (_agent, allowed) => `Use one of: ${allowed}.`,
  ),
  acpCommandNotFound: coded(
    "ACP_COMMAND_NOT_FOUND",
    (agent: string, whyMissing: string, _installHint: string | undefined) => `ACP agent \`${agent}\`: command not found (${whyMissing}).`,
    (agent, _whyMissing, installHint) => (installHint ? `Install it: ${installHint}` : `Install the agent's ACP adapter, or set acp.agents.${agent}.command to its path.`),
  ),
  acpSessionFailed: coded("ACP_SESSION_FAILED", (problem: string) => problem, "Give an existing directory as cwd (relative paths start at your workspace)."),
  taskEmpty: coded("INVALID_ARGUMENT", "task is empty.", "Describe the task the sub-agent should do."),
  taskTooLong: coded("INVALID_ARGUMENT", (length: number, max: number) => `task is ${length} characters; at most ${max}.`, "Put large inputs in attachments instead."),
  labelTooLong: coded("INVALID_ARGUMENT", (length: number, max: number) => `label is ${length} characters; at most ${max}.`, "Use a short label."),
  thinkingInvalid: coded(
    "INVALID_ARGUMENT",
    (thinking: string, _levels: string) => `thinking "${thinking}" is not a level.`,
    (_thinking, levels) => `Use one of: ${levels}.`,
  ),
  spawnModelNotAllowed: coded(
    "INVALID_ARGUMENT",
    (problem: string) => `sessions_spawn: ${problem}`,
    "Spawn without model (the sub-agent uses its agent's model), or with a model the policy allows.",
  ),
  attachmentsInvalid: coded("INVALID_ATTACHMENTS", (problem: string) => problem, "Fix the attachments and spawn again, or put the content in the task text."),
  gatewayStopping: coded("GATEWAY_STOPPING", "The gateway is shutting down.", "Try again after it restarted."),
  spawnFailed: coded("SPAWN_FAILED", (problem: string) => problem, "Do the task yourself, or try again later."),
  noThreadChannels: coded("THREAD_UNAVAILABLE", "thread: true needs a chat channel with threads, and this gateway has none.", WITHOUT_THREAD),
  notInAChat: coded(
    "THREAD_UNAVAILABLE",
    "thread: true opens a thread in the chat this conversation happens in, and this session is not in a chat channel (it talks through the gateway API).",
    WITHOUT_THREAD,
  ),
  threadAccountDown: coded(
    "THREAD_UNAVAILABLE",
    (channel: string, accountId: string) => `The ${channel} account "${accountId}" this chat uses is not running, so no thread can be opened.`,
    `${WITHOUT_THREAD} Or try again once the channel is back.`,
  ),
  channelHasNoThreads: coded("THREAD_UNAVAILABLE", (channel: string) => `${channel} has no threads to bind a sub-agent to.`, WITHOUT_THREAD),
  threadsOff: coded("THREAD_UNAVAILABLE", (key: string) => `Thread-bound sub-agents are turned off here (${key}).`, WITHOUT_THREAD),
  threadRefused: coded("THREAD_UNAVAILABLE", (problem: string) => `No thread can be opened in this chat: ${problem}`, WITHOUT_THREAD),
  threadFailed: coded("THREAD_FAILED", (problem: string) => `Opening the thread failed: ${problem}`, "Try again, or spawn without thread."),
  subagentsTargetMissing: coded("INVALID_ARGUMENT", (action: string) => `action "${action}" needs a target.`, 'Call subagents with action "list" to see your sub-agents.'),
  subagentNotFound: coded(
    "SUBAGENT_NOT_FOUND",
    (target: string) => `No sub-agent of yours matches "${target}".`,
    'Call subagents with action "list": use #n, a label, a runId prefix or a session key.',
  ),
  subagentEnded: coded("SUBAGENT_ENDED", (outcome: string) => `That sub-agent already ended (${outcome}).`, "Spawn a new one for new work."),
  steerEmpty: coded("INVALID_ARGUMENT", "The steer message is empty.", "Say what the sub-agent should do instead."),
  steerTooLong: coded("INVALID_ARGUMENT", (length: number, max: number) => `The steer message is ${length} characters; at most ${max}.`, "Shorten it."),
  steerRateLimited: coded(
    "STEER_RATE_LIMITED",
    (sinceMs: number, everySeconds: number) => `Steered ${sinceMs} ms ago; one steer per ${everySeconds} s.`,
    "Wait a moment, then steer again.",
  ),
  steerFailed: coded("STEER_FAILED", (problem: string) => problem, "Kill the sub-agent and spawn a new one."),

  // ── The message tool ────────────────────────────────────────────────────────────────────────
  channelsUnavailable: coded("CHANNELS_UNAVAILABLE", "No chat channel is running on this gateway.", "Answer in your reply instead."),
  channelSendFailed: coded("CHANNEL_SEND_FAILED", (problem: string) => problem, "Check the target (e.g. channel:<id>, user:<id>, a chat id) or answer in your reply."),
  messageButtonsInvalid: coded(
    "MESSAGE_BUTTONS_INVALID",
    (problem: string) => `The buttons were not sent: ${problem}.`,
    "Give each button a label and a value of at most 64 bytes, not shaped like a chat command, and send buttons with a text message, not a file.",
  ),
  messageActionNeeds: coded(
    "MESSAGE_ACTION_INVALID",
    (action: string, field: string, what: string) => `The ${action} action needs \`${field}\` (${what}).`,
    (action: string, field: string) => `Call message again with action "${action}" and ${field}.`,
  ),
  messageActionTakesNo: coded(
    "MESSAGE_ACTION_INVALID",
    (action: string, fields: string) => `The ${action} action takes no ${fields}.`,
    (action: string, fields: string) => `Leave out ${fields} for action "${action}" (file and buttons go with send).`,
  ),
  messageRemoveNeedsEmoji: coded(
    "MESSAGE_ACTION_INVALID",
    "remove: true takes back one emoji, and no emoji was given.",
    'Name the emoji to take back, or pass emoji "" without remove to take back all of your reactions.',
  ),
  channelActionFailed: coded(
    "CHANNEL_ACTION_FAILED",
    (action: string, problem: string) => `The ${action} failed: ${problem}`,
    "Check messageId (an id the platform gave the message, e.g. from a send's result) and the target, or answer in your reply.",
  ),
  messageActionOwnerOnly: coded(
    "MESSAGE_TARGET_OWNER_ONLY",
    (action: string) => `Only the owner may ${action} messages; this sender is not the owner.`,
    "Send a message or react instead.",
  ),
  messageTargetOwnerOnly: coded(
    "MESSAGE_TARGET_OWNER_ONLY",
    (fields: string) => `Only the owner may send elsewhere or send files (${fields}); this sender is not the owner.`,
    "Leave out to, channel, accountId, threadId and file to write to this conversation.",
  ),

  // ── The memory tools ────────────────────────────────────────────────────────────────────────
  memoryOutsideGateway: coded("MEMORY_UNAVAILABLE", "The memory tools only work inside the gateway.", "Read MEMORY.md or memory/YYYY-MM-DD.md with read instead."),
  memoryUnavailable: coded(
    "MEMORY_UNAVAILABLE",
    (problem: string) => problem,
    "Answer without memory and say it could not be searched; the operator can check `openclaw memory status`.",
  ),
  notAMemoryFile: coded(
    "NOT_A_MEMORY_FILE",
    (requested: string) => `"${requested}" is not a memory file.`,
    "Pass a path from a memory_search result (MEMORY.md, USER.md or memory/….md).",
  ),
  memoryFileUnreadable: coded(
    "NOT_A_MEMORY_FILE",
    (requested: string, reason: string) => `"${requested}" is ${reason}.`,
    "Pass a path from a memory_search result (MEMORY.md, USER.md or memory/….md).",
  ),
  memoryFileNotFound: coded("FILE_NOT_FOUND", (requested: string) => `"${requested}" does not exist.`, "Run memory_search to find the right file."),
  // ── The cron tool ───────────────────────────────────────────────────────────────────────────
  askUserUnavailable: coded("ASK_USER_UNAVAILABLE", "Questions to the user only work inside the gateway.", "Decide with your best judgment and say what you assumed."),
  askUserInvalid: coded("ASK_USER_INVALID", (problem: string) => `The question was not asked: ${problem}.`, "Fix the questions and call ask_user again."),
  askUserRefused: coded("ASK_USER_REFUSED", (problem: string) => problem, "Wait for the pending question's answer before asking another."),
  gatewayUnavailable: coded("GATEWAY_UNAVAILABLE", "The gateway tool only works inside the gateway.", "Tell the user to run `openclaw config get` instead."),
  configUnreadable: coded(
    "CONFIG_UNREADABLE",
    (problem: string) => `The config cannot be read: ${problem}.`,
    "Tell the user what is wrong with the config file; `openclaw doctor` names it too.",
  ),
  configPathNotFound: coded(
    "CONFIG_PATH_NOT_FOUND",
    (path: string) => `config path not found: ${path} (not set, and no default).`,
    "Call config.get with a parent path to see what is there, or config.schema.lookup to see what may be set.",
  ),
  configTooLarge: coded(
    "CONFIG_TOO_LARGE",
    (chars: number, max: number) => `The config is ${chars} characters as JSON, over the ${max} this tool returns at once.`,
    "Call config.get again with path set to the part you need (e.g. agents.defaults or channels.telegram).",
  ),
  configSchemaPathNotFound: coded(
    "CONFIG_SCHEMA_PATH_NOT_FOUND",
    (path: string) => `config schema path not found: ${path}.`,
    'Look up its parent (or "." for the top level) to see the keys that exist.',
  ),
  // ── heartbeat_respond ───────────────────────────────────────────────────────────────────────
  notAHeartbeat: coded("NOT_A_HEARTBEAT", "heartbeat_respond only works in a heartbeat turn.", "Answer the user in text."),
  heartbeatAlreadyReported: coded(
    "HEARTBEAT_ALREADY_REPORTED",
    "heartbeat_respond was already accepted for this turn; only the first report counts.",
    "End the turn: the first report decides what the user is sent.",
  ),
  // ── progress_card ───────────────────────────────────────────────────────────────────────────
  progressCardInvalid: coded(
    "PROGRESS_CARD_INVALID",
    (rule: string) => `The progress card was not changed: ${rule}.`,
    "Fix the card and call progress_card again with the whole card (each call replaces it).",
  ),
  progressCardUnavailable: coded("PROGRESS_CARD_UNAVAILABLE", (problem: string) => problem, "Report progress in your reply instead."),
  // ── get_goal / create_goal / update_goal ──────────────────────────────────────────────────────
  goalInvalid: coded("GOAL_INVALID", (rule: string) => `The goal was not changed: ${rule}.`, "Fix the named argument and call the tool again."),
  goalNotChanged: coded(
    "GOAL_NOT_CHANGED",
    (problem: string) => `The goal was not changed: ${problem}.`,
    "Do not retry. Call get_goal to see the session's goal, continue this turn and give the user your reply.",
  ),
  goalUnavailable: coded("GOAL_UNAVAILABLE", (problem: string) => problem, "Continue without a session goal and give the user your reply."),
  cronUnavailable: coded("CRON_UNAVAILABLE", (problem: string) => problem, "Tell the user scheduling is off here; the operator can enable cron (docs/automation.md)."),
  cronRefused: coded("CRON_REFUSED", (problem: string) => problem, "Fix the named field and call cron again; action status or list shows what exists."),
  memoryOffsetOutOfRange: coded(
    "OFFSET_OUT_OF_RANGE",
    (from: number, requested: string, lines: number) => `from ${from} is past the end of "${requested}" (${lines} lines).`,
    "Use a smaller from.",
  ),
};

/** The suggestion every workspace-path refusal carries: where the workspace is and what is allowed. */
function workspaceAdvice(root: string): string {
  return `The workspace root is ${root}. Use a path relative to it (for example "notes/todo.md"); paths must stay inside the workspace.`;
}
