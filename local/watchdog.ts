import { Worker } from 'node:worker_threads';

/**
 * The local runtime serves every request in one Node process. A handler whose promise never settles is
 * answered by the gateway's timer (504, as API Gateway answers a function that overran), but a handler
 * stuck in synchronous work blocks the event loop, and with it every timer, every other request and the
 * SIGTERM handler; nothing in the process can interrupt it. (V8 can stop running JavaScript, but Node
 * aborts on the async-context bookkeeping that skips.) So a watchdog thread watches a heartbeat the event
 * loop keeps: blocked past a handler's timeout, it says so on stderr, naming the requests in flight;
 * still blocked after `endAfterMs`, it ends the runtime (its child processes first, so no Java is left
 * behind) rather than leave it frozen. Limits: docs/operations.md ("A handler that overruns").
 */
const WATCHDOG = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const { blockedMs, endAfterMs, checkMs } = workerData;
const beat = new Int32Array(workerData.beat);
const slotUsed = new Int32Array(workerData.slotUsed);
const slotText = new Uint8Array(workerData.slotText);
const { slotBytes } = workerData;
const inFlight = () => {
  const names = [];
  for (let i = 0; i < slotUsed.length; i++) {
    const length = Atomics.load(slotUsed, i);
    if (length > 0) names.push(Buffer.from(slotText.subarray(i * slotBytes, i * slotBytes + length)).toString('utf8'));
  }
  return names;
};
const children = new Set();
parentPort.on('message', (m) => {
  if (m.child) children.add(m.child);
  else if (m.childGone) children.delete(m.childGone);
});
const say = (text) => writeSync(2, '[gateway] ' + text + '\\n');
let seen = Atomics.load(beat, 0);
let since = Date.now();
let checked = since;
let told = false;
setInterval(() => {
  const now = Date.now();
  const current = Atomics.load(beat, 0);
  // This thread was held up too (the process suspended, the machine asleep): nothing to judge by.
  const suspended = now - checked > 4 * checkMs + 1000;
  checked = now;
  if (current !== seen || suspended) {
    if (told && !suspended) say('the event loop runs again after ' + (now - since) + ' ms');
    seen = current;
    since = now;
    told = false;
    return;
  }
  const blocked = now - since;
  const requests = inFlight().join(', ') || 'none';
  if (blocked >= blockedMs && !told) {
    told = true;
    say('the event loop has been blocked for ' + blocked + ' ms, longer than a handler may run (' + blockedMs +
      ' ms); requests in flight: ' + requests);
  }
  if (blocked >= endAfterMs) {
    say('ending the runtime: the event loop is still blocked after ' + blocked + ' ms, so no request, timer or ' +
      'signal can be served; requests in flight: ' + requests + '. Start it again.');
    for (const pid of children) {
      try { process.kill(pid, 'SIGKILL'); } catch {}
    }
    process.kill(process.pid, 'SIGKILL');
  }
}, checkMs);
`;

/** How often the event loop proves it is running. */
const BEAT_MS = 100;

/**
 * The requests in flight, as the watchdog names them, in shared memory rather than a message each way
 * per request (two postMessage calls were a twentieth of the runtime's CPU under load): a slot per request,
 * its text's length (0: free) and its text. Beyond the slots, a request is simply not named.
 */
const SLOTS = 256;
const SLOT_BYTES = 120;

interface Watchdog {
  worker: Worker;
  beat: NodeJS.Timeout;
  users: number;
  slotUsed: Int32Array;
  slotText: Uint8Array;
  freeSlots: number[];
}
let running: Watchdog | undefined;
/** Child processes to end with the runtime, told to each watchdog that starts. */
const children = new Set<number>();

/**
 * Starts the process's one watchdog (or joins the running one, keeping its bounds): an event loop blocked
 * for `blockedMs` is reported, for `endAfterMs` ends the process. Returns the way to leave; the last to
 * leave stops it.
 */
export function guardEventLoop(blockedMs: number, endAfterMs = 2 * blockedMs): () => void {
  if (!running) {
    const shared = new SharedArrayBuffer(4);
    const beats = new Int32Array(shared);
    const beat = setInterval(() => Atomics.add(beats, 0, 1), BEAT_MS);
    beat.unref();
    const checkMs = Math.max(20, Math.min(250, Math.floor(blockedMs / 4)));
    const slotUsed = new SharedArrayBuffer(SLOTS * 4);
    const slotText = new SharedArrayBuffer(SLOTS * SLOT_BYTES);
    const worker = new Worker(WATCHDOG, {
      eval: true,
      workerData: { beat: shared, blockedMs, endAfterMs, checkMs, slotUsed, slotText, slotBytes: SLOT_BYTES },
    });
    worker.unref();
    for (const pid of children) worker.postMessage({ child: pid });
    running = {
      worker,
      beat,
      users: 0,
      slotUsed: new Int32Array(slotUsed),
      slotText: new Uint8Array(slotText),
      freeSlots: Array.from({ length: SLOTS }, (_, i) => SLOTS - 1 - i),
    };
  }
  const watchdog = running;
  watchdog.users++;
  let left = false;
  return () => {
    if (left) return;
    left = true;
    if (--watchdog.users > 0) return;
    clearInterval(watchdog.beat);
    void watchdog.worker.terminate();
    if (running === watchdog) running = undefined;
  };
}

/** A child process (DynamoDB Local) the watchdog ends before it ends the runtime; returns the way to forget it. */
export function endWithRuntime(pid: number | undefined): () => void {
  if (pid === undefined) return () => undefined;
  children.add(pid);
  running?.worker.postMessage({ child: pid });
  return () => {
    children.delete(pid);
    running?.worker.postMessage({ childGone: pid });
  };
}

/** Tells the watchdog a request is in flight (named in its report if the loop blocks); returns its end. */
export function watchInvocation(name: string, requestId: string): () => void {
  const watchdog = running;
  const slot = watchdog?.freeSlots.pop();
  if (!watchdog || slot === undefined) return () => undefined;
  const text = watchdog.slotText.subarray(slot * SLOT_BYTES, (slot + 1) * SLOT_BYTES);
  const { written } = encoder.encodeInto(`${name} req=${requestId}`, text);
  Atomics.store(watchdog.slotUsed, slot, written);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    Atomics.store(watchdog.slotUsed, slot, 0);
    watchdog.freeSlots.push(slot);
  };
}

const encoder = new TextEncoder();
