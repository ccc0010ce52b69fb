#!/usr/bin/env node
/**
 * The SDK's command line: `messaging-platform listen --forward-to http://localhost:4000/hook [--events booking.*]`.
 * Credentials come from the environment the local runtime prints (`API`, `TENANT`, `KEY`) or from flags.
 */
import { MessagingClient } from './client.js';
import { listen, listenSecret } from './listen.js';

/** The parts of Node's `process` used here (typed locally: the package needs no Node types). */
declare const process: {
  argv: string[];
  env: Record<string, string | undefined>;
  exitCode?: number;
  once(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void;
};

const USAGE = `Usage: messaging-platform listen --forward-to <url> [options]

Forwards the tenant's events to a local URL, signed as webhook deliveries are (Standard Webhooks).

Options:
  --forward-to <url>   where each event is POSTed, e.g. http://localhost:4000/hook
  --events <types>     comma-separated types or patterns (booking.*, conversation.created); default all
  --print-secret       print the whsec_ signing secret and exit
  --api <url>          the API (default $API), e.g. http://127.0.0.1:3000/api/v1
  --tenant <uuid>      the tenant id (default $TENANT)
  --api-key <key>      an API key of the tenant (default $KEY)
  --secret <whsec_…>   sign with this secret (default $LISTEN_SECRET, else one derived from the API key)`;

function parse(args: string[]): Record<string, string | true> {
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === 'print-secret' || name === 'help') flags[name] = true;
    else if (inline !== undefined) flags[name] = inline;
    else if (i + 1 < args.length) flags[name] = args[++i]!;
    else throw new Error(`--${name} needs a value`);
  }
  return flags;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const flags = command === 'listen' ? parse(rest) : { help: true as const };
  if (flags.help) {
    console.log(USAGE);
    if (command !== 'listen' && command !== undefined && command !== '--help') process.exitCode = 2;
    return;
  }
  const value = (name: string, envName: string) => (typeof flags[name] === 'string' ? (flags[name] as string) : process.env[envName]);
  const apiKey = value('api-key', 'KEY');
  const tenantId = value('tenant', 'TENANT');
  const baseUrl = value('api', 'API');
  if (!apiKey || !tenantId || !baseUrl) throw new Error('set API, TENANT and KEY (the line `npm start` prints), or pass --api, --tenant and --api-key');
  const secret = value('secret', 'LISTEN_SECRET') || (await listenSecret(apiKey));
  if (flags['print-secret']) {
    console.log(secret);
    return;
  }
  const forwardTo = value('forward-to', 'LISTEN_FORWARD_TO');
  if (!forwardTo || !/^https?:\/\//.test(forwardTo)) throw new Error('--forward-to must be an http(s) URL, e.g. http://localhost:4000/hook');
  const events = typeof flags.events === 'string' ? flags.events.split(',').map((e) => e.trim()).filter(Boolean) : undefined;

  const client = new MessagingClient({ apiKey, tenantId, baseUrl });
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  const session = listen(client, { forwardTo, events, secret, signal: stop.signal });
  session.ready.then(
    ({ source }) =>
      console.log(
        `Ready: forwarding ${events?.join(', ') ?? 'every event'} to ${forwardTo} (from ${source === 'realtime' ? 'the realtime API' : 'GET /events'}), signed with ${secret}`,
      ),
    () => undefined,
  );
  await session.done;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`listen: ${(error as Error).message ?? String(error)}`);
  process.exitCode = 1;
});
