export type { MediaFile } from "./media-file.js";
export { audioBody, MIN_AUDIO_BYTES, transcribeAudio, type TranscriptionOutcome } from "./transcribe-audio.js";
export { AUDIO_DEFAULTS, isForAudio, transcriptionPlan, type TranscriptionAttempt, type TranscriptionPlan } from "./transcription-plan.js";
export { describeImage, imageBody, type DescriptionOutcome } from "./describe-image.js";
export { IMAGE_DEFAULTS, imageDescriptionPlan, type DescriptionAttempt } from "./image-description-plan.js";
export { createImageDescriber, viewImageMode } from "./image-describer.js";
