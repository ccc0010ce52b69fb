// Public: the stream reactions run it when a user is disabled.
import { clock } from '../platform/clock';
import { logger } from '../platform/workers';
import { releaseAssignments } from './service';

/**
 * Off the table's stream (the stream-reactions worker hands it user items written disabled): returns the
 * user's unresolved conversations to the team's queue. Asynchronous, so a user with many conversations
 * neither slows nor fails the request that disabled them; a failed record is retried by the stream.
 */
export async function releaseDisabledUser(user: Record<string, unknown>): Promise<void> {
  if (user.status !== 'disabled' || typeof user.id !== 'string' || typeof user.tenant_id !== 'string') return;
  const released = await releaseAssignments(user.tenant_id, user.id, clock.now());
  if (released > 0) logger.info('assignments released', { tenant_id: user.tenant_id, user_id: user.id, released });
}
