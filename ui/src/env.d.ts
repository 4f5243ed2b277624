/** The package version, put in by the build (vite `define`). */
declare const __UI_VERSION__: string;
