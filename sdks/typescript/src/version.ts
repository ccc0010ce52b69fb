/** The package version (a test checks it against package.json). */
export const SDK_VERSION = '0.1.0';
