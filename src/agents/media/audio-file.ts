/** A saved inbound audio file, as transcription reads it. */
export interface AudioFile {
  path: string;
  mimeType?: string;
  bytes: number;
}
