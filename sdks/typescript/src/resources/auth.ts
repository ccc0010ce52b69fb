import type { SessionCredentials } from '../core/auth.js';
import { AuthenticationError, MessagingError } from '../core/errors.js';
import type { RequestOptions, Transport } from '../core/http.js';
import * as generated from '../generated/resources.js';
import type { Tokens } from '../types.js';

/** `client.auth`: the calling credential (generated), and the login session's lifecycle (hand-written). */
export class Auth extends generated.Auth {
  constructor(
    transport: Transport,
    private readonly session: SessionCredentials | undefined,
  ) {
    super(transport);
  }

  /**
   * Ends the login session at once: its access and refresh tokens stop working, and this client forgets
   * them. A session the API already ended counts as logged out. (An API key is revoked with
   * `apiKeys.revoke` instead: logout with one is a `BadRequestError`, `not_a_session`.)
   */
  async logout(options?: RequestOptions): Promise<void> {
    try {
      await this.call<undefined>('POST', '/auth/logout', { body: {}, options });
    } catch (error) {
      if (!(this.session && error instanceof AuthenticationError)) throw error;
    }
    await this.session?.clear();
  }

  /** Rotates the session's tokens now (the client also does it by itself before they expire). */
  refresh(): Promise<Tokens> {
    if (!this.session) throw new MessagingError('refresh() needs a login session (MessagingClient.login).');
    return this.session.refresh();
  }
}
