/** Types for runtime-process.mjs (plain JavaScript, shared with the jest global setup). */
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface SpawnedRuntime {
  child: ChildProcessByStdio<null, Readable, Readable>;
  info: { url: string; dynamoEndpoint: string; sqsEndpoint: string };
  /** Everything the runtime printed so far (stdout and stderr). */
  output: () => string;
}

export function spawnRuntime(
  env: Record<string, string | undefined>,
  options?: { detached?: boolean; timeoutMs?: number },
): Promise<SpawnedRuntime>;
