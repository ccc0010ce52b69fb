import { unprocessable } from '../platform/errors';
import { getUser } from '../users/store';

/** An assignee must be an active user of the same tenant. */
export async function assertAssignee(tenantId: string, assigneeId: string | null | undefined): Promise<void> {
  if (!assigneeId) return;
  const user = await getUser(tenantId, assigneeId);
  if (!user || user.status !== 'active') {
    throw unprocessable('unknown_assignee', 'The assignee is not an active user of this tenant.', [{ path: 'assignee_id', message: 'unknown user' }]);
  }
}
