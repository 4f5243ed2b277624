export { cachedSpeechSetup, speechSetup, type SpeechFormat, type SpeechHost, type SpeechSetup } from "./speech-setup.js";
export { isVoiceCompatible, SPEECH_FILES, speechFormatFor, VOICE_NOTE_CHANNELS } from "./speech-format.js";
export { requestSpeech, SPEECH_MAX_BYTES, type SpeechFailure, type SpeechOutcome } from "./openai-speech.js";
export { synthesizeSpeech, type SpeechRequest, type SpeechResult, type SynthesizedSpeech } from "./synthesize.js";
export { speechFileName, speechMediaDir, writeSpeechFile } from "./speech-file.js";
export { AUTO_TTS_MAX_CHARS, AUTO_TTS_MIN_CHARS, type SpokenReply, spokenReplyText } from "./auto-speech-text.js";
export { AutoTtsPreference, autoTtsPreferencePath } from "./auto-tts-preference.js";
export { type AutoTtsSource, effectiveAutoTts } from "./auto-tts-mode.js";
