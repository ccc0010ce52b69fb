/**
 * `npm run receiver`: a local HTTPS webhook receiver for trying webhooks by hand (docs/guides/https-endpoints.md).
 * It makes a throwaway CA and certificate in .local/tls (start the API with NODE_EXTRA_CA_CERTS pointing
 * at the CA), prints each delivery, verifies it when WEBHOOK_SECRET is set, and can be told to fail:
 *   curl -k https://localhost:4443/__fail     answer 500 from now on
 *   curl -k https://localhost:4443/__ok       answer 204 again
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { ensureReceiverTls } from './receiver-tls';

const dir = ensureReceiverTls();
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
