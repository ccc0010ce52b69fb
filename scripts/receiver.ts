/**
 * `npm run receiver`: a local HTTPS webhook receiver for trying webhooks by hand (README walkthrough).
 * It makes a throwaway CA and certificate in .local/tls (start the API with NODE_EXTRA_CA_CERTS pointing
 * at the CA), prints each delivery, verifies it when WEBHOOK_SECRET is set, and can be told to fail:
 *   curl -k https://localhost:4443/__fail     answer 500 from now on
 *   curl -k https://localhost:4443/__ok       answer 204 again
 */
import { X509Certificate } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { makeTestTls } from '../test/support/tls.mjs';

const dir = join(fileURLToPath(new URL('..', import.meta.url)), '.local', 'tls');
/** The throwaway certificate lives two days: it is usable while it has at least an hour left. */
function usable(): boolean {
  try {
    if (!existsSync(join(dir, 'ca.pem')) || !existsSync(join(dir, 'server.key'))) return false;
    return Date.parse(new X509Certificate(readFileSync(join(dir, 'server.pem'))).validTo) > Date.now() + 3_600_000;
  } catch {
    return false;
  }
}
if (!usable()) {
  let made: { ca: string; key: string; cert: string };
  try {
    made = makeTestTls();
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: Buffer };
    const why = e.code === 'ENOENT' ? 'openssl is not installed' : e.stderr?.toString().trim() || e.message;
    console.error(
      `receiver: cannot make its TLS certificate with openssl (${why}); install it, e.g. sudo apt-get install openssl`,
    );
    process.exit(1);
  }
  const renewed = existsSync(join(dir, 'ca.pem'));
  mkdirSync(dir, { recursive: true });
  copyFileSync(made.ca, join(dir, 'ca.pem'));
  copyFileSync(made.key, join(dir, 'server.key'));
  copyFileSync(made.cert, join(dir, 'server.pem'));
  if (renewed)
    console.log(
      'Made a new CA and certificate in .local/tls (the old ones expired): restart npm start to trust the new CA.',
    );
}
const port = Number(process.env.RECEIVER_PORT ?? 4443);
const verifier = process.env.WEBHOOK_SECRET ? new Webhook(process.env.WEBHOOK_SECRET) : undefined;
let failing = false;

createServer(
  { key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) },
  (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/__fail' || req.url === '/__ok') {
        failing = req.url === '/__fail';
        console.log(failing ? '-- now answering 500' : '-- now answering 204');
        return res.writeHead(200).end(failing ? 'failing\n' : 'ok\n');
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let verdict = 'not verified (set WEBHOOK_SECRET)';
      if (verifier) {
        try {
          verifier.verify(body, headers);
          verdict = 'signature OK';
        } catch {
          verdict = 'SIGNATURE INVALID';
        }
      }
      const event = JSON.parse(body || '{}') as { id?: string; type?: string };
      console.log(`${new Date().toISOString()} ${event.type} ${event.id} ${verdict} -> ${failing ? 500 : 204}`);
      res.writeHead(failing ? 500 : 204).end();
    });
  },
).listen(port, '127.0.0.1', () => {
  console.log(`Receiver at https://localhost:${port}/hook`);
  console.log(
    `Start the API trusting its CA: NODE_EXTRA_CA_CERTS=${join('.local', 'tls', 'ca.pem')} WEBHOOK_ALLOW_PRIVATE_NETWORKS=true WEBHOOK_RETRY_DELAYS=2,2,2,2,2 npm start`,
  );
});
