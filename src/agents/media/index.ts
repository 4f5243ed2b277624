export type { AudioFile } from "./audio-file.js";
export { audioBody, MIN_AUDIO_BYTES, transcribeAudio, type TranscriptionOutcome } from "./transcribe-audio.js";
export { AUDIO_DEFAULTS, isForAudio, transcriptionPlan, type TranscriptionAttempt, type TranscriptionPlan } from "./transcription-plan.js";
