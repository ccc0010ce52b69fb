// Public: the stream reactions run it when a user is disabled, and the settled passes run it again.
import { clock } from '../platform/clock';
import { logger } from '../platform/workers';
import { releaseAssignments } from './service';

/** A pass of a disabled user's release; `pass` counts from 0 (the stream reaction's). */
export interface AssignmentReleasePass {
  kind: 'assignment-release';
  tenant_id: string;
  user_id: string;
  pass: number;
}

/**
 * How many passes a release makes. The assignee index shows a write after a delay: an assignment
 * committed just before the user was disabled may be missing from the first pass. No assignment can
 * commit after the disable (saveConversation checks the user), so a later pass that finds nothing ends it.
 */
const RELEASE_PASSES = 3;

/**
 * Off the table's stream (the stream-reactions worker hands it user items written disabled): the first
 * pass, which returns the user's unresolved conversations to the team's queue. Asynchronous, so a user
 * with many conversations neither slows nor fails the request that disabled them. Returns the pass to
 * run once the index has settled.
 */
export async function releaseDisabledUser(user: Record<string, unknown>): Promise<AssignmentReleasePass | undefined> {
  if (user.status !== 'disabled' || typeof user.id !== 'string' || typeof user.tenant_id !== 'string') return undefined;
  return releasePass({ kind: 'assignment-release', tenant_id: user.tenant_id, user_id: user.id, pass: 0 });
}

/** Runs one pass; returns the next one, or undefined when the release is over. A failed pass throws (retried). */
export async function releasePass(pass: AssignmentReleasePass): Promise<AssignmentReleasePass | undefined> {
  const released = await releaseAssignments(pass.tenant_id, pass.user_id, clock.now());
  if (released > 0)
    logger.info('assignments released', {
      tenant_id: pass.tenant_id,
      user_id: pass.user_id,
      released,
      pass: pass.pass,
    });
  const next = pass.pass + 1;
  if (next >= RELEASE_PASSES || (pass.pass > 0 && released === 0)) return undefined;
  return { ...pass, pass: next };
}
