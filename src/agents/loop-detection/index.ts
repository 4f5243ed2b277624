export { createLoopDetector } from "./create-loop-detector.js";
export { resolveLoopDetectorOptions, type LoopDetectorOptions, type ResolvedLoopDetectorOptions } from "./loop-detector-options.js";
export { loopDetectionFromConfig, type LoopDetectionSettings } from "./loop-detection-config.js";
export { canonicalJson } from "./canonical-json.js";
