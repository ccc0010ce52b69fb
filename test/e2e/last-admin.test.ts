import { randomUUID } from 'node:crypto';
import { authOf, call, createTenant, eventually, settlesTo, type ApiResponse, type TestTenant } from '../support/api';

/**
 * A tenant always keeps an active admin, even when admins are demoted or disabled at the same moment:
 * the rule is a counter on the tenant, moved in the same transaction as each user change.
 */
let t: TestTenant;
const admins: string[] = [];
beforeAll(async () => {
  t = await createTenant();
  admins.push(t.adminUserId);
  for (let i = 0; i < 4; i++) {
    const res = await call('POST', '/users', {
      ...authOf(t),
      body: {
        email: `admin-${i}-${randomUUID().slice(0, 8)}@example.com`,
        password: 'another admin password',
        role: 'admin',
      },
    });
    expect(res.status).toBe(201);
    admins.push(res.body.id);
  }
});

const patch = (id: string, body: Record<string, unknown>) => call('PATCH', `/users/${id}`, { ...authOf(t), body });
const activeAdmins = async () => {
  const res = await call('GET', '/users?limit=100', authOf(t));
  return (res.body.data as { id: string; role: string; status: string }[])
    .filter((u) => u.role === 'admin' && u.status === 'active')
    .map((u) => u.id);
};

describe('the last active admin', () => {
  it('survives concurrent demotions and disablings of every admin, round after round', async () => {
    for (let round = 0; round < 4; round++) {
      await settlesTo(async () => (await activeAdmins()).sort(), [...admins].sort());
      // Every admin loses admin status at once: half demoted, half disabled.
      const results: ApiResponse[] = await Promise.all(
        admins.map((id, i) => patch(id, (i + round) % 2 ? { role: 'agent' } : { status: 'disabled' })),
      );
      const winners = results.filter((r) => r.status === 200);
      const losers = results.filter((r) => r.status !== 200);
      expect(winners).toHaveLength(admins.length - 1);
      expect(losers.map((r) => [r.status, r.body.code])).toEqual([[409, 'last_admin']]);
      const left = await eventually(activeAdmins, (ids) => ids.length === 1);
      expect(left).toHaveLength(1);
      // The survivor is exactly the one whose change was refused.
      expect(admins.indexOf(left[0]!)).toBe(results.indexOf(losers[0]!));
      // Restore every admin for the next round (re-promoting and re-enabling count them again).
      for (const [i, id] of admins.entries()) {
        if (results[i]!.status === 200) expect((await patch(id, { role: 'admin', status: 'active' })).status).toBe(200);
      }
    }
  });

  it('counts exactly: after the others go one by one, the last one stays', async () => {
    const [last, ...others] = admins;
    for (const id of others) expect((await patch(id, { role: 'agent' })).status).toBe(200);
    const refused = await patch(last!, { status: 'disabled' });
    expect([refused.status, refused.body.code]).toEqual([409, 'last_admin']);
    // Changes that keep admin status are not affected; a new admin makes the old one removable again.
    expect((await patch(last!, { name: 'Still In Charge' })).status).toBe(200);
    expect((await patch(others[0]!, { role: 'admin' })).status).toBe(200);
    expect((await patch(last!, { status: 'disabled' })).status).toBe(200);
    await settlesTo(activeAdmins, [others[0]]);
  });
});
