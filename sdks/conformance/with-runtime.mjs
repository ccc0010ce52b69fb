// Runs a command against a fresh local runtime: starts `bin/local.ts` with the main suite's own setup
// (a free port, no demo data, a platform token, a test CA for HTTPS webhook receivers), runs the command
// with TEST_RUNTIME_FILE naming a JSON file of the runtime's addresses, then stops the runtime.
//
//   node sdks/conformance/with-runtime.mjs python3 -m pytest sdks/python/tests
//
// The file holds: url (the API's origin; the API is under /api/v1), platformToken, tls {ca, key, cert}
// (PEM files: the CA the runtime trusts, and a certificate for 127.0.0.1/localhost that it signed).
// The suites' shared fault proxy and webhook receiver (test-servers.mjs) run beside it: SDK_FAULT_PROXY_URL
// and SDK_WEBHOOK_RECEIVER_URL.
import { runWithRuntime } from '../../test/support/run-with-runtime.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node sdks/conformance/with-runtime.mjs <command> [args...]');
  process.exit(2);
}
await runWithRuntime('conformance', command, args, { sdkServers: true });
