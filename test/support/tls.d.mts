/** Types for tls.mjs (plain JavaScript, shared with the jest global setup). */
export interface TestTls {
  /** The folder holding them, which the caller removes when done. */
  dir: string;
  /** Paths of the CA certificate, the server key and the server certificate. */
  ca: string;
  key: string;
  cert: string;
}

export function makeTestTls(): TestTls;
