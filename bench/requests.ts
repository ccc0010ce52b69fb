/**
 * Request costs for `npm run bench`: DynamoDB round trips and capacity units of authenticated requests,
 * everything a sent message causes in the background, and dollars per million requests on AWS list prices.
 *
 * Every invocation (HTTP handler or worker) counts its own DynamoDB calls: the local runtime gives each one
 * its own counter (local/invocations.ts), so a request is never charged for what background workers do
 * while it runs. Round trips are the calls a request makes; "seq" is how many of them it waits for one
 * after the other (calls made in parallel count once).
 */
import { ROUTES } from '../catalog/routes';
import { FULL_VCPU_MB, functionMemoryMb } from '../catalog/functions';
import { renderAccessLog } from '../catalog/access-log';
import { TRIGGER, type InvocationRecord } from '../local/invocations';
import { PRICES } from './prices';
import { HELD, benchSlot, cancelBenchBooking, holdFutureBookings } from './booking-growth';
import { BUCKETS } from '../catalog/resources';

export const REQUEST_TARGETS = {
  /** GET /api-keys, steady state. */
  getRoundTrips: 3,
  messageUnits: 15,
  messageAllInUnits: 30,
  messageRoundTrips: 4,
  inboundRoundTrips: 5,
  /** POST /bookings with 500 future bookings of the resource, against 1: at most this much dearer. */
  bookingGrowth: 0.1,
  listDollarsPerMillion: 2.5,
  messageDollarsPerMillion: 10,
};

/**
 * Log bytes an invocation costs besides its own records, from the formats AWS writes. Lambda's START,
 * END and REPORT lines (about 340 bytes a request) are not written: every function logs in JSON with the
 * platform's records at WARN (lib/api-function.ts). Every function is traced, so Powertools adds the
 * X-Ray trace id to each record in AWS (not here). An HTTP request adds one API Gateway access-log line,
 * rendered from the stage's format (catalog/access-log.ts) with the request's own values. A successful
 * request publishes no metrics line: only a 5xx does (functions/http/middleware.ts), and every request
 * priced here succeeds.
 */
const TRACE_ID_LOG_BYTES = ',"xray_trace_id":"1-6740c2a1-0d8f3c1e4b6a2f9e8c7d5b3a"'.length;
/** The access-log line's bytes, kept in the request's invocation store by `measure`. */
const ACCESS_LOG_BYTES = Symbol('accessLogBytes');
/**
 * X-Ray, priced apart (the cost table covers the services the targets name): Lambda's default sampling
 * traces the first request each second and 5 % of the rest, at $5 per million traces recorded.
 */
const XRAY_DOLLARS_PER_MILLION_TRACED = 5;
const XRAY_SAMPLED_SHARE = 0.05;

/** Measured runs of each priced request, after its warm-up (`steady` below). */
const STEADY_RUNS = 7;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const mark = (ok: boolean) => (ok ? 'ok' : 'OVER');
const units = (r: { db: InvocationRecord['db'] }) => r.db.readUnits + r.db.writeUnits;
const isHttp = (name: string) => ROUTES.some((r) => r.id === name);

/**
 * The duration Lambda would bill at `memoryMb`: the time spent waiting as measured here, plus the CPU time
 * measured here (on one full core) stretched by the share of a vCPU that memory buys (all of one at
 * 1,769 MB). It is the whole process's CPU time while the invocation runs (the bench runs little else
 * meanwhile), so it also counts some of the local runtime's own work.
 */
export const billedMs = (r: Pick<InvocationRecord, 'ms' | 'cpuMs'>, memoryMb: number): number => {
  const cpuMs = Math.min(r.cpuMs, r.ms);
  return r.ms - cpuMs + cpuMs * Math.max(1, FULL_VCPU_MB / memoryMb);
};

/** Log bytes an invocation wrote, kept in its store by the bench's log sink. */
export const LOG_BYTES = Symbol('logBytes');

export interface Cost {
  dynamo: number;
  lambda: number;
  apiGateway: number;
  sqs: number;
  logs: number;
  total: number;
}

/** Dollars for one request and what it caused, from the invocations' measured usage. */
export function costOf(records: InvocationRecord[], sqsRequests: number): Cost {
  let dynamo = 0;
  let lambda = 0;
  let apiGateway = 0;
  let logBytes = 0;
  for (const r of records) {
    dynamo += r.db.readUnits * PRICES.dynamoReadUnit + r.db.writeUnits * PRICES.dynamoWriteUnit;
    const memoryMb = functionMemoryMb(r.functionName);
    lambda +=
      (Math.ceil(billedMs(r, memoryMb)) / 1000) * (memoryMb / 1024) * PRICES.lambdaGbSecond + PRICES.lambdaRequest;
    const http = isHttp(r.functionName);
    if (http) apiGateway += PRICES.httpApiRequest;
    logBytes += (r.store[LOG_BYTES] as number | undefined) ?? 0;
    if (http) logBytes += (r.store[ACCESS_LOG_BYTES] as number | undefined) ?? 0;
  }
  const sqs = sqsRequests * PRICES.sqsRequest;
  const logs = (logBytes / 1024 ** 3) * PRICES.logsIngestedGb;
  return { dynamo, lambda, apiGateway, sqs, logs, total: dynamo + lambda + apiGateway + sqs + logs };
}

const COST_PARTS = ['dynamo', 'lambda', 'apiGateway', 'sqs', 'logs', 'total'] as const;
/** Costs part by part: their sum, and one less another. */
const sum = (costs: Cost[]): Cost =>
  Object.fromEntries(COST_PARTS.map((k) => [k, costs.reduce((n, c) => n + c[k], 0)])) as unknown as Cost;
const minus = (a: Cost, b: Cost): Cost =>
  Object.fromEntries(COST_PARTS.map((k) => [k, a[k] - b[k]])) as unknown as Cost;

/**
 * SQS requests of a set of invocations: their own sends, and a receive and a delete per batch a queue
 * started (an asynchronous invocation, such as the channel sender's first attempt, takes none).
 */
export const sqsRequestsOf = (records: InvocationRecord[]) =>
  records.reduce((n, r) => n + r.db.sqsRequests + (r.store[TRIGGER] === 'queue' ? 2 : 0), 0);

interface Measured {
  /** The HTTP status; `run` for a worker's run. */
  status: number | 'run';
  text: string;
  own: InvocationRecord | undefined;
  /** Stream and queue worker invocations that ran because of the request (nothing else runs meanwhile). */
  caused: InvocationRecord[];
}

const commandsOf = (r: InvocationRecord) =>
  Object.entries(r.db.byCommand)
    .map(([name, n]) => `${name.replace('Command', '')}×${n}`)
    .join(' ');

function line(label: string, status: number | string, r: InvocationRecord | undefined, note = '') {
  const db = r?.db;
  const cells = db
    ? [
        String(db.calls).padStart(3),
        String(db.sequential).padStart(4),
        String(round(db.readUnits)).padStart(6),
        String(round(db.writeUnits)).padStart(6),
        String(round(db.indexWriteUnits)).padStart(6),
        String(round(units({ db }))).padStart(6),
      ]
    : ['-', '-', '-', '-', '-', '-'].map((c, i) => c.padStart(i < 1 ? 3 : i < 2 ? 4 : 6));
  console.log(`${label.padEnd(58)} ${String(status).padStart(4)} ${cells.join(' ')}  ${note}`);
}

/** Round trips, capacity units and dollars per request, through a local runtime started on a free port. */
export async function requestCosts(): Promise<void> {
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const { startLocalRuntime } = await import('../local/runtime');
  // The business scheduler runs here only when the bench runs it (a booking reminder's send is measured on
  // its own): the runtime's poller runs once at the start, then not for a day.
  const schedulerEvery = process.env.BUSINESS_SCHEDULER_INTERVAL_SECONDS;
  process.env.BUSINESS_SCHEDULER_INTERVAL_SECONDS = '86400';
  const runtime = await startLocalRuntime({ port: 0, seedDemo: true, logLevel: 'error' }).finally(() => {
    if (schedulerEvery === undefined) delete process.env.BUSINESS_SCHEDULER_INTERVAL_SECONDS;
    else process.env.BUSINESS_SCHEDULER_INTERVAL_SECONDS = schedulerEvery;
  });
  const failures: string[] = [];
  const target = (ok: boolean, what: string) => {
    if (!ok) failures.push(what);
    return mark(ok);
  };
  try {
    const { dbStats } = await import('../local/usage');
    const { observeInvocations, currentInvocation } = await import('../local/invocations');
    const { logger, setLogSink } = await import('../functions/platform/observability');
    const demo = runtime.demo;
    if (!demo) throw new Error('no demo tenant');
    dbStats.captureCapacity = true;
    dbStats.priceTransaction = (await import('./transactions')).transactionPricer();
    // Logs as AWS would ingest them (INFO, one JSON line per record), counted per invocation, not printed.
    logger.setLogLevel('INFO');
    setLogSink((record) => {
      const invocation = currentInvocation();
      if (invocation)
        invocation[LOG_BYTES] =
          ((invocation[LOG_BYTES] as number | undefined) ?? 0) + JSON.stringify(record).length + TRACE_ID_LOG_BYTES + 1;
    });
    const keyHeaders = { 'X-Tenant-ID': demo.tenantId, Authorization: `Bearer ${demo.apiKey}` };
    // Room for the warm-ups under the tenant's hourly limit (counted in 17 shards, still one write per request).
    const { changeTenant } = await import('../functions/tenants/service');
    await changeTenant(demo.tenantId, { plan: 'enterprise', rate_limit_per_hour: 1_000_000 }, undefined, new Date());
    const records: InvocationRecord[] = [];
    observeInvocations((r) => records.push(r));
    /** Until no invocation has ended for 1.5 s: the stream and queue pollers have nothing left to do. */
    const quiet = async () => {
      for (let seen = -1; seen !== records.length;) {
        seen = records.length;
        await new Promise((r) => setTimeout(r, 1500));
      }
    };
    // A key's last_used_at is refreshed at most once a minute, on whichever request comes: a request first
    // lets that happen on a warm-up read, so it is never charged for it (except the first-use figure).
    const warmUp = () => fetch(`${runtime.url}/api/v1/auth/me`, { headers: keyHeaders }).then((r) => r.text());
    const measure = async (init: RequestInit, path: string, caused = false, warm = true): Promise<Measured> => {
      if (warm) await warmUp();
      await quiet();
      const from = records.length;
      const res = await fetch(`${runtime.url}/api/v1${path}`, init);
      const text = await res.text();
      const requestId = res.headers.get('x-request-id');
      if (caused) await quiet();
      const after = records.slice(from);
      const own = after.find((r) => r.requestId === requestId);
      // The access-log line as the stage would write it: a documentation-range IPv4 client, API Gateway's
      // 16-character request id, and this request's method, path, status, bytes and latency.
      if (own)
        own.store[ACCESS_LOG_BYTES] =
          renderAccessLog({
            'identity.sourceIp': '203.0.113.195',
            requestTime: '22/Nov/2026:23:44:17 +0000',
            httpMethod: init.method ?? 'GET',
            path: `/api/v1${path}`,
            protocol: 'HTTP/1.1',
            status: res.status,
            responseLength: Buffer.byteLength(text),
            requestId: 'Ab1CdEfGhIJKLmN=',
            responseLatency: Math.round(own.ms),
          }).length + 1;
      const background = after.filter(
        (r) => r !== own && ['stream', 'queue', 'invoke'].includes(String(r.store[TRIGGER])),
      );
      return { status: res.status, text, own, caused: caused ? background : [] };
    };
    const show = (label: string, m: Measured, note = '') =>
      line(label, m.status, m.own, note || (m.own ? commandsOf(m.own) : ''));
    const perMillion = (rs: (InvocationRecord | undefined)[]) => {
      const present = rs.filter((r): r is InvocationRecord => r !== undefined);
      const c = costOf(present, sqsRequestsOf(present));
      return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v * 1e6])) as unknown as Cost;
    };
    /**
     * A priced request as Lambda bills it in steady use: warm containers whose code the engine has long
     * optimised (the first few hundred calls of a handler take up to twice the CPU time). The request is
     * sent `warmups` times unmeasured, then measured `STEADY_RUNS` times, and the run of median cost is
     * kept: its DynamoDB work is that of every run, its CPU time and waits vary by some milliseconds.
     */
    const steady = async (
      request: [RequestInit, string],
      warmups: number,
      caused: boolean,
      undo: (responseText: string) => Promise<unknown> = async () => undefined,
    ) => {
      const [init, path] = request;
      for (let i = 0; i < warmups; i++)
        await undo(await fetch(`${runtime.url}/api/v1${path}`, init).then((r) => r.text()));
      const runs: { m: Measured; dollars: number }[] = [];
      for (let i = 0; i < STEADY_RUNS; i++) {
        const m = await measure(init, path, caused);
        await undo(m.text);
        runs.push({ m, dollars: perMillion([m.own, ...m.caused]).total });
      }
      return (runs.sort((a, b) => a.dollars - b.dollars)[STEADY_RUNS >> 1] as { m: Measured }).m;
    };

    const json = { ...keyHeaders, 'Content-Type': 'application/json' };
    console.log("\nDynamoDB per request, counted in the request's own invocation (background workers excluded)");
    console.log('rt: round trips; seq: of them, waited for one after the other; RCU/WCU: read and write units;');
    console.log('idx: of the write units, index writes\n');
    console.log(
      `${'request'.padEnd(58)} ${'code'.padStart(4)} ${'rt'.padStart(3)} ${'seq'.padStart(4)} ${'RCU'.padStart(6)} ${'WCU'.padStart(6)} ${'idx'.padStart(6)} ${'units'.padStart(6)}  commands`,
    );
    show(
      'GET /api-keys, API key, first use (sets last_used_at)',
      await measure({ headers: keyHeaders }, '/api-keys', false, false),
    );
    const apiKeys = await measure({ headers: keyHeaders }, '/api-keys');
    show('GET /api-keys, API key, steady state', apiKeys);
    const login = await fetch(`${runtime.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: demo.adminEmail, password: demo.adminPassword }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    show(
      'GET /api-keys, access token',
      await measure(
        { headers: { 'X-Tenant-ID': demo.tenantId, Authorization: `Bearer ${login.access_token}` } },
        '/api-keys',
      ),
    );

    // A conversation with 30 messages, among 10 conversations (one of them tagged).
    let conversationId = '';
    for (let c = 0; c < 10; c++) {
      for (let m = 0; m < (c === 0 ? 30 : 1); m++) {
        const res = await fetch(`${runtime.url}/api/v1/channels/sandbox/inbound`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ from: `+4915100000${String(c).padStart(3, '0')}`, text: `message ${m}` }),
        });
        conversationId ||= ((await res.json()) as { conversation: { id: string } }).conversation.id;
      }
    }
    const tagged = await fetch(`${runtime.url}/api/v1/channels/sandbox/inbound`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ from: '+4915100000333', text: 'tag me' }),
    }).then(async (r) => ((await r.json()) as { conversation: { id: string } }).conversation.id);
    await fetch(`${runtime.url}/api/v1/conversations/${tagged}`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ tags: ['vip'] }),
    });
    show(
      'GET /conversations/:id (with newest 20 messages)',
      await measure({ headers: keyHeaders }, `/conversations/${conversationId}`),
    );
    const list = await steady([{ headers: keyHeaders }, '/conversations'], 400, false);
    show('GET /conversations (page of 20)', list);
    show('GET /conversations?status=open', await measure({ headers: keyHeaders }, '/conversations?status=open'));
    show(
      'GET /conversations?status=open&tag=vip (tag items)',
      await measure({ headers: keyHeaders }, '/conversations?status=open&tag=vip'),
    );
    show(
      'GET /conversations?channel=sandbox',
      await measure({ headers: keyHeaders }, '/conversations?channel=sandbox'),
    );

    const message = await steady(
      [
        { method: 'POST', headers: json, body: JSON.stringify({ text: 'On our way!' }) },
        `/conversations/${conversationId}/messages`,
      ],
      60,
      true,
    );
    show('POST /conversations/:id/messages', message);
    for (const r of message.caused) line(`  caused: ${r.functionName}`, '', r, commandsOf(r));
    const messageAllIn = [message.own, ...message.caused].reduce((n, r) => n + (r ? units(r) : 0), 0);
    console.log(
      `${'  all-in (request and everything it caused)'.padEnd(58)} ${''.padStart(4)} ${''.padStart(37)} ${String(round(messageAllIn)).padStart(6)}`,
    );

    show(
      'POST /conversations/:id/messages (one tag)',
      await measure(
        { method: 'POST', headers: json, body: JSON.stringify({ text: 'Tagged' }) },
        `/conversations/${tagged}/messages`,
      ),
    );
    const inbound = await steady(
      [
        { method: 'POST', headers: json, body: JSON.stringify({ from: '+4915100000001', text: 'Still there?' }) },
        '/channels/sandbox/inbound',
      ],
      60,
      true,
    );
    show('POST /channels/sandbox/inbound (existing conversation)', inbound);
    for (const r of inbound.caused) line(`  caused: ${r.functionName}`, '', r, commandsOf(r));
    const firstContact = await measure(
      { method: 'POST', headers: json, body: JSON.stringify({ from: '+4915100000777', text: 'Hello' }) },
      '/channels/sandbox/inbound',
    );
    show('POST /channels/sandbox/inbound (new customer)', firstContact);
    const whatsapp = await whatsappInbound(runtime.url, demo.tenantId, measure);
    show('POST /channels/whatsapp/webhook (one message, existing conv.)', whatsapp);
    for (const r of whatsapp.caused) line(`  caused: ${r.functionName}`, '', r, commandsOf(r));
    const media = await whatsappInboundMedia(measure);
    show(`POST /channels/whatsapp/webhook (a ${BENCH_MEDIA_BYTES / 1024} KB photo)`, media);
    for (const r of media.caused) line(`  caused: ${r.functionName}`, '', r, commandsOf(r));
    const stripeEvent = await stripeEventIngestion(demo.tenantId, measure);
    show('POST /payments/stripe/webhook/:tenant (payment succeeded)', stripeEvent);
    for (const r of stripeEvent.caused) line(`  caused: ${r.functionName}`, '', r, commandsOf(r));

    // POST /bookings next to a resource that holds 1, then 500, future bookings: the same cost.
    await holdFutureBookings(demo.tenantId, 'bench');
    const cancel = (text: string) => cancelBenchBooking(demo.tenantId, (JSON.parse(text) as { id: string }).id);
    const bookings: Measured[] = [];
    for (const held of HELD) {
      const m = await steady(
        [{ method: 'POST', headers: json, body: JSON.stringify(benchSlot(`bench-${held}`, 0, 30)) }, '/bookings'],
        60,
        true,
        cancel,
      );
      show(`POST /bookings (resource with ${held} future booking${held > 1 ? 's' : ''})`, m);
      bookings.push(m);
    }

    const reminder = await reminderCost(
      runtime.url,
      json,
      conversationId,
      records,
      quiet,
      (m: Measured[]) => perMillion(m.flatMap((x) => [x.own, ...x.caused])).total,
    );
    show('booking reminder: the booking write that schedules it', reminder.booked);
    for (const r of reminder.booked.caused) line(`  caused: ${r.functionName}`, '', r, commandsOf(r));
    show('booking reminder: a scheduler run that sends it', reminder.sent, 'scheduler run');
    for (const r of reminder.sent.caused) line(`  caused: ${r.functionName}`, '', r, commandsOf(r));
    show('booking reminder: a scheduler run with nothing due', reminder.idle, 'scheduler run');

    // Targets.
    const u = (m: Measured) => (m.own ? units(m.own) : NaN);
    const [b1, b500] = bookings.map(u) as [number, number];
    const growth = Math.abs(b500 - b1) / b1;
    console.log(
      "\nNote: DynamoDB Local reports a transaction's capacity once per table and index set, not per item, so the\n" +
        'bench prices every TransactWriteItems itself, item by item, as DynamoDB bills it (bench/transactions.ts).',
    );
    console.log('\nTargets');
    const rows: [string, string, boolean][] = [
      [
        'GET /api-keys round trips',
        `${apiKeys.own?.db.calls} <= ${REQUEST_TARGETS.getRoundTrips}`,
        (apiKeys.own?.db.calls ?? 99) <= REQUEST_TARGETS.getRoundTrips,
      ],
      [
        'GET /conversations: rate limit beside the read (sequential trips)',
        `${list.own?.db.sequential} <= 2`,
        (list.own?.db.sequential ?? 99) <= 2,
      ],
      [
        'POST message, units on the request path',
        `${round(u(message))} <= ${REQUEST_TARGETS.messageUnits}`,
        u(message) <= REQUEST_TARGETS.messageUnits,
      ],
      [
        'POST message, units all-in',
        `${round(messageAllIn)} <= ${REQUEST_TARGETS.messageAllInUnits}`,
        messageAllIn <= REQUEST_TARGETS.messageAllInUnits,
      ],
      [
        'POST message, round trips',
        `${message.own?.db.calls} <= ${REQUEST_TARGETS.messageRoundTrips}`,
        (message.own?.db.calls ?? 99) <= REQUEST_TARGETS.messageRoundTrips,
      ],
      [
        'sandbox inbound, round trips',
        `${inbound.own?.db.calls} (new customer ${firstContact.own?.db.calls}) <= ${REQUEST_TARGETS.inboundRoundTrips}`,
        Math.max(inbound.own?.db.calls ?? 99, firstContact.own?.db.calls ?? 99) <= REQUEST_TARGETS.inboundRoundTrips,
      ],
      [
        'WhatsApp inbound, round trips',
        `${whatsapp.own?.db.calls} <= ${REQUEST_TARGETS.inboundRoundTrips}`,
        (whatsapp.own?.db.calls ?? 99) <= REQUEST_TARGETS.inboundRoundTrips,
      ],
      [
        'POST /bookings, 500 vs 1 future bookings',
        `${round(b500)} vs ${round(b1)} units (${round(growth * 100)} %, within ${REQUEST_TARGETS.bookingGrowth * 100} %)`,
        growth <= REQUEST_TARGETS.bookingGrowth,
      ],
    ];
    for (const [what, value, ok] of rows) console.log(`${what.padEnd(66)} ${value.padEnd(40)} ${target(ok, what)}`);

    // Cost model.
    const allIn = (m: Measured | undefined) => [m?.own, ...(m?.caused ?? [])];
    // A booking reminder: its scheduling (the reminders' reaction to the booking write), its send (the
    // scheduler run that sends it, less a run with nothing due, which runs every minute whatever is due),
    // and what the send causes (its message sent by the channel, its events dispatched).
    const scheduling = reminder.booked.caused.filter((r) => r.functionName === 'stream-reactions');
    const reminderRows: [string, (InvocationRecord | undefined)[], Cost][] = [
      ['booking reminder: scheduled', scheduling, perMillion(scheduling)],
      [
        'booking reminder: sent (over an idle run)',
        [reminder.sent.own],
        minus(perMillion([reminder.sent.own]), perMillion([reminder.idle.own])),
      ],
      ['booking reminder: its message and events', reminder.sent.caused, perMillion(reminder.sent.caused)],
    ];
    /** A row: what, the invocations it charges, its target, and its cost when it is not theirs as they stand. */
    type CostRow = [string, (InvocationRecord | undefined)[], number | undefined, Cost?];
    const costs: CostRow[] = [
      ['GET /conversations (page of 20)', [list.own], REQUEST_TARGETS.listDollarsPerMillion],
      ['POST message, all-in', allIn(message), REQUEST_TARGETS.messageDollarsPerMillion],
      ['sandbox inbound, all-in (with AI analysis)', allIn(inbound), undefined],
      ['POST /bookings, all-in', allIn(bookings[1]), undefined],
      ['WhatsApp inbound message, all-in', allIn(whatsapp), undefined],
      ['WhatsApp inbound photo, all-in (S3 below)', allIn(media), undefined],
      // A provider's event (received, verified, deduplicated, applied) costs no more than an inbound message's.
      ['Stripe payment event, all-in', allIn(stripeEvent), round(perMillion(allIn(whatsapp)).total, 2)],
      ...reminderRows.map(([what, rs, cost]): CostRow => [what, rs, undefined, cost]),
      [
        'booking reminder, all-in',
        reminderRows.flatMap(([, rs]) => rs),
        undefined,
        sum(reminderRows.map(([, , c]) => c)),
      ],
    ];
    console.log(
      `\nDollars per million requests (${PRICES.source}; Lambda arm64 at each function's memory: waits as measured here, CPU time scaled to that memory's share of a vCPU)\n`,
    );
    const money = (n: number) => n.toFixed(2).padStart(8);
    console.log(
      `${'request'.padEnd(44)} ${['DynamoDB', 'Lambda', 'API GW', 'SQS', 'Logs', 'total'].map((h) => h.padStart(8)).join(' ')}  target`,
    );
    for (const [what, records, limit, measured] of costs) {
      const c = measured ?? perMillion(records);
      const verdict = limit === undefined ? '' : `<= ${limit} ${target(c.total <= limit, `${what} cost`)}`;
      console.log(
        `${what.padEnd(44)} ${[c.dynamo, c.lambda, c.apiGateway, c.sqs, c.logs, c.total].map(money).join(' ')}  ${verdict}`,
      );
    }
    const s3 = mediaS3PerMillion(BENCH_MEDIA_BYTES, BUCKETS.media.retentionDays, 1);
    const photo = perMillion(allIn(media)).total;
    console.log(
      `${'  + its S3 part (PUT, 1 download, storage)'.padEnd(44)} ${'S3'.padStart(8)} ${money(s3.total)}: PUT ${s3.put.toFixed(2)}, GET ${s3.get.toFixed(2)}, ${BENCH_MEDIA_BYTES / 1024} KB kept ${BUCKETS.media.retentionDays} days ${s3.storage.toFixed(2)}`,
    );
    console.log(`${'WhatsApp inbound photo with S3, all-in'.padEnd(44)} ${' '.repeat(44)}${money(photo + s3.total)}`);
    console.log(
      "\nLambda time billed in those rows (waits + CPU time at the memory's share of a vCPU), per invocation:",
    );
    for (const [what, records] of costs) {
      const shown = records
        .filter((r): r is InvocationRecord => r !== undefined)
        .map((r) => {
          const memoryMb = functionMemoryMb(r.functionName);
          return `${r.functionName} ${Math.ceil(billedMs(r, memoryMb))} ms at ${memoryMb} MB (${round(r.ms)} ms wall, ${round(r.cpuMs)} ms CPU)`;
        });
      console.log(`  ${what}: ${shown.join('; ')}`);
    }
    console.log(
      `X-Ray, not in the totals: Lambda's default sampling traces about ${XRAY_SAMPLED_SHARE * 100} % of requests at ` +
        `$${XRAY_DOLLARS_PER_MILLION_TRACED} per million traces, about $${(XRAY_SAMPLED_SHARE * XRAY_DOLLARS_PER_MILLION_TRACED).toFixed(2)} per million requests.`,
    );
    console.log(failures.length ? `\nOVER: ${failures.join('; ')}` : '\nEvery request target met.');
  } finally {
    await runtime.stop();
  }
}

const BENCH_NUMBER = '1098765432100';
const BENCH_APP_SECRET = 'bench-app-secret';

/** A WhatsApp number connected straight through the store (no Embedded Signup here), once per run. */
async function connectBenchNumber(tenantId: string): Promise<void> {
  const { connectWhatsApp } = await import('../functions/channels/store');
  await connectWhatsApp(
    {
      channel: 'whatsapp',
      tenant_id: tenantId,
      phone_number_id: BENCH_NUMBER,
      display_phone_number: null,
      waba_id: null,
      status: 'active',
      created_at: new Date().toISOString(),
    },
    // The token the fake Graph server takes for this number (inbound media is fetched with it).
    { access_token: `EAAG-token-${BENCH_NUMBER}`, app_secret: BENCH_APP_SECRET },
    'bench-verify-token',
  );
}

/** One customer message in Meta's signed webhook, as the route receives it. */
async function signedWebhook(message: Record<string, unknown>): Promise<RequestInit> {
  const { createHmac } = await import('node:crypto');
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { phone_number_id: BENCH_NUMBER, display_phone_number: '15550001111' },
              contacts: [{ wa_id: '4915100000900', profile: { name: 'Bench' } }],
              messages: [{ from: '4915100000900', timestamp: '1700000000', ...message }],
            },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac('sha256', BENCH_APP_SECRET).update(body).digest('hex')}`;
  return { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature }, body };
}

/** A WhatsApp number connected straight through the store, then one signed webhook. */
async function whatsappInbound(
  url: string,
  tenantId: string,
  measure: (init: RequestInit, path: string, caused?: boolean) => Promise<Measured>,
): Promise<Measured> {
  await connectBenchNumber(tenantId);
  const text = (id: string) => signedWebhook({ id, type: 'text', text: { body: 'Hi' } });
  void url;
  await measure(await text('wamid.bench.1'), '/channels/whatsapp/webhook');
  // The webhook only queues: the inbound worker's share is what it caused.
  return measure(await text('wamid.bench.2'), '/channels/whatsapp/webhook', true);
}

/** The photo a priced inbound media message carries (a typical phone photo, as WhatsApp compresses it). */
export const BENCH_MEDIA_BYTES = 150 * 1024;

/**
 * A customer's photo on WhatsApp (after whatsappInbound connected the number): the webhook, and what it
 * causes: the inbound worker, the stream reactions (the analysis, the fetch queued) and the media fetcher,
 * which copies the file from a local fake Graph server (Meta's documented media shapes) into the bucket.
 */
async function whatsappInboundMedia(
  measure: (init: RequestInit, path: string, caused?: boolean) => Promise<Measured>,
): Promise<Measured> {
  const { startFakeGraph } = (await import('../test/support/fake-graph.mjs')) as {
    startFakeGraph: () => Promise<{ server: { close(): void }; url: string }>;
  };
  const graph = await startFakeGraph();
  process.env.WHATSAPP_GRAPH_URL = graph.url;
  try {
    const register = async () =>
      (
        (await (
          await fetch(`${graph.url}/__media`, {
            method: 'POST',
            body: JSON.stringify({
              data: Buffer.alloc(BENCH_MEDIA_BYTES, 1).toString('base64'),
              mime_type: 'image/jpeg',
            }),
          })
        ).json()) as { id: string }
      ).id;
    const photo = async (wamid: string) =>
      signedWebhook({ id: wamid, type: 'image', image: { id: await register(), mime_type: 'image/jpeg' } });
    await measure(await photo('wamid.bench.media.1'), '/channels/whatsapp/webhook', true);
    return await measure(await photo('wamid.bench.media.2'), '/channels/whatsapp/webhook', true);
  } finally {
    graph.server.close();
  }
}

/**
 * The S3 part of an inbound media message, per million (S3 requests are not in the invocations' counts):
 * the fetcher's PUT, `downloads` GETs through presigned URLs, and the file kept for the bucket's retention.
 */
export function mediaS3PerMillion(bytes: number, retentionDays: number, downloads: number) {
  const put = PRICES.s3PutRequest * 1e6;
  const get = downloads * PRICES.s3GetRequest * 1e6;
  const storage = ((bytes * 1e6) / 1024 ** 3) * PRICES.s3StorageGbMonth * (retentionDays / 30);
  return { put, get, storage, total: put + get + storage };
}

/**
 * One verified Stripe event (`checkout.session.completed`) for a payment made straight through the store (no
 * Stripe here), signed by the `stripe` library's test-header helper: what ingesting a provider event costs.
 */
async function stripeEventIngestion(
  tenantId: string,
  measure: (init: RequestInit, path: string, caused?: boolean) => Promise<Measured>,
): Promise<Measured> {
  const { default: Stripe } = await import('stripe');
  const { saveSettings, savePayment } = await import('../functions/payments/store');
  const { DEFAULT_SETTINGS } = await import('../functions/payments/payment');
  const webhookSecret = 'whsec_bench_signing_secret';
  const settings = {
    ...DEFAULT_SETTINGS,
    provider: 'stripe' as const,
    stripe: { livemode: false, key_hint: 'rk_test_…bench', connected_at: new Date().toISOString() },
  };
  await saveSettings(
    tenantId,
    settings,
    0,
    { secret_key: 'rk_test_bench0123456789', webhook_secret: webhookSecret },
    new Date(),
  );
  const paymentEvent = async (n: number) => {
    const at = new Date().toISOString();
    const id = `pay_01JBENCH0000000000000000${String(n).padStart(2, '0')}`;
    await savePayment(
      undefined,
      {
        id,
        tenant_id: tenantId,
        booking_id: null,
        conversation_id: null,
        customer_id: null,
        purpose: 'other',
        description: null,
        amount: 2500,
        currency: 'EUR',
        status: 'pending',
        status_reason: null,
        amount_refunded: 0,
        refunds: [],
        link: 'https://checkout.stripe.com/c/pay/cs_bench',
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        provider: 'stripe',
        provider_ids: { checkout_session_id: `cs_bench_${n}` },
        paid_at: null,
        created_at: at,
        updated_at: at,
        version: 1,
      },
      [],
    );
    const body = JSON.stringify({
      id: `evt_bench_${n}`,
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: `cs_bench_${n}`,
          object: 'checkout.session',
          payment_status: 'paid',
          status: 'complete',
          payment_intent: `pi_bench_${n}`,
          metadata: { payment_id: id, tenant_id: tenantId },
        },
      },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: webhookSecret });
    return { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body };
  };
  await measure(await paymentEvent(1), `/payments/stripe/webhook/${tenantId}`);
  // The event is applied on the request path; what it caused is the dispatcher fanning out payment.succeeded.
  return measure(await paymentEvent(2), `/payments/stripe/webhook/${tenantId}`, true);
}

/** Measured runs of a booking reminder, after its warm-ups; the run of median cost is kept. */
const REMINDER_RUNS = 5;
const REMINDER_WARMUPS = 2;

/**
 * A booking reminder, measured: a booking of the conversation's customer that starts just under five
 * minutes from now, with a policy reminding five minutes before (with the demo's sandbox template), so its
 * reminder is due at once; the business scheduler run that sends it, invoked here as the runtime's poller
 * invokes it (the bench's runtime runs its own only at the start); and a run with nothing due. Each
 * booking is cancelled after, so every run finds the same state.
 */
async function reminderCost(
  url: string,
  headers: Record<string, string>,
  conversationId: string,
  records: InvocationRecord[],
  quiet: () => Promise<void>,
  dollars: (m: Measured[]) => number,
): Promise<{ booked: Measured; sent: Measured; idle: Measured }> {
  const { invokeLocally } = await import('../local/invocations');
  const { handler: scheduler } = await import('../functions/scheduler/schedule-worker');
  const { DEMO_TEMPLATE } = await import('../local/seed');
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };
  /** One run of the scheduler and what it caused. */
  const schedulerRun = async (): Promise<Measured> => {
    await quiet();
    const from = records.length;
    await invokeLocally('business-scheduler', scheduler, {}, undefined, { [TRIGGER]: 'schedule' });
    await quiet();
    const after = records.slice(from);
    return {
      status: 'run',
      text: '',
      own: after.find((r) => r.functionName === 'business-scheduler'),
      caused: after.filter((r) => ['stream', 'queue', 'invoke'].includes(String(r.store[TRIGGER]))),
    };
  };
  // The demo's template was seeded after the runtime's one run: this run approves it (its review is due).
  await schedulerRun();
  const policy = await api('PATCH', '/reminder-policy', {
    enabled: true,
    offsets_minutes: [5],
    templates: [{ name: DEMO_TEMPLATE, language: 'en' }],
    default_language: 'en',
  });
  if (policy.status !== 200) throw new Error(`reminder policy: ${policy.status} ${policy.text}`);
  const customerId = (
    JSON.parse((await api('GET', `/conversations/${conversationId}`)).text) as {
      customer: { id: string };
    }
  ).customer.id;
  const runs: { booked: Measured; sent: Measured; idle: Measured; cost: number }[] = [];
  for (let i = 0; i < REMINDER_WARMUPS + REMINDER_RUNS; i++) {
    await quiet();
    const from = records.length;
    const start = new Date(Date.now() + 5 * 60_000 - 1000);
    const res = await api('POST', '/bookings', {
      customer: { id: customerId },
      conversation_id: conversationId,
      service: 'Bench reminder',
      start_at: start.toISOString(),
      end_at: new Date(start.getTime() + 30 * 60_000).toISOString(),
      timezone: 'UTC',
    });
    if (res.status !== 201) throw new Error(`reminder booking: ${res.status} ${res.text}`);
    await quiet();
    const after = records.slice(from);
    const booked: Measured = {
      status: res.status,
      text: res.text,
      own: after.find((r) => isHttp(r.functionName)),
      caused: after.filter((r) => ['stream', 'queue', 'invoke'].includes(String(r.store[TRIGGER]))),
    };
    const sent = await schedulerRun();
    const idle = await schedulerRun();
    await api('DELETE', `/bookings/${(JSON.parse(res.text) as { id: string }).id}`);
    if (i >= REMINDER_WARMUPS) runs.push({ booked, sent, idle, cost: dollars([sent]) - dollars([idle]) });
  }
  return runs.sort((a, b) => a.cost - b.cost)[REMINDER_RUNS >> 1]!;
}
