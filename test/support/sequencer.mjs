// The order jest starts test files in. Jest's own order runs the files that took longest last time first,
// from its cache, and by file size when there is no cache (a clean clone, CI): there the guides test (a
// short file that runs every guide against a runtime of its own, minutes of waiting) started last and ran
// alone at the end while the other worker sat idle. The runtime files that wait longest, by their own
// timers or a runtime of their own, go first in the order below; the rest follow in jest's order.
import sequencerModule from '@jest/test-sequencer';

// A CommonJS module: its class is the `default` export of the module object.
const Sequencer = sequencerModule.default;

/** Runtime files by how long they take alone on an idle machine, longest first (docs/testing.md). */
export const LONGEST_FIRST = [
  'test/e2e/guides.test.ts',
  'test/e2e/webhooks.test.ts',
  'test/e2e/crash-recovery.test.ts',
  'test/e2e/whatsapp.test.ts',
  'test/e2e/local-runtime.test.ts',
  'test/e2e/bookings.test.ts',
  'test/e2e/conversations.test.ts',
  'test/e2e/payments.test.ts',
  'test/e2e/booking-reminders.test.ts',
  'test/e2e/auth-lifecycle.test.ts',
];

const rank = (path) => {
  const index = LONGEST_FIRST.findIndex((file) => path.replaceAll('\\', '/').endsWith(`/${file}`));
  return index === -1 ? LONGEST_FIRST.length : index;
};

export default class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    // Array.prototype.sort is stable: files outside the list keep jest's order.
    return super.sort(tests).sort((a, b) => rank(a.path) - rank(b.path));
  }
}
