import { X509Certificate } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * The receiver's throwaway CA and certificate for `localhost` in .local/tls, made (with openssl) when missing or
 * about to expire; returns the folder. Start the API with NODE_EXTRA_CA_CERTS=.local/tls/ca.pem to trust it.
 */
export function ensureReceiverTls(): string {
  if (usable()) return dir;
  let made: ReturnType<typeof makeTestTls>;
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
  rmSync(made.dir, { recursive: true, force: true });
  if (renewed)
    console.log(
      'Made a new CA and certificate in .local/tls (the old ones expired): restart npm start to trust the new CA.',
    );
  return dir;
}
