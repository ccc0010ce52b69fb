/** Types for fake-graph.mjs (plain JavaScript, shared with the jest global setup). */
import type { Server } from 'node:http';

export function startFakeGraph(): Promise<{ server: Server; url: string }>;
