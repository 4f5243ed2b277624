/** A saved inbound file (a recording, an image), as transcription and description read it. */
export interface MediaFile {
  path: string;
  mimeType?: string;
  bytes: number;
}
