import type { SessionCredentials } from '../core/auth.js';
import { AuthenticationError, MessagingError } from '../core/errors.js';
import type { RequestOptions, Transport } from '../core/http.js';
import { ApiResource } from '../core/resource.js';
import type { Me, Tokens } from '../types.js';

/** The calling credential, and the login session's lifecycle. */
export class Auth extends ApiResource {
  constructor(
    transport: Transport,
    private readonly session: SessionCredentials | undefined,
  ) {
    super(transport);
  }

  /** Who is calling: an API key or a user's session, with its role and tenant. */
  me(options?: RequestOptions): Promise<Me> {
    return this.call('GET', '/auth/me', { options });
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
