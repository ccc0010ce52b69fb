import { IDLE_TARGET_DOLLARS, idleCost, total } from '../../bench/idle-cost';
import { appFacts } from '../../scripts/preflight';
import { QUOTAS, highestUsage, overQuota, quotaUsage } from '../../scripts/quotas';
import { templatesIn } from '../../scripts/synthesized';
import { assembly } from './synth';

/**
 * Every AWS quota a later issue could run into, measured on the synthesized templates (nested stacks
 * included) and kept below its limit with headroom, so growth fails here rather than in a rollback.
 */
const templates = templatesIn(assembly.directory);
const rows = quotaUsage(templates);

describe('quotas', () => {
  it('measures every quota on the synthesized stacks', () => {
    const measured = new Set(rows.map((r) => r.quota));
    expect([...measured].sort()).toEqual(Object.keys(QUOTAS).sort());
    expect(templates.map((t) => t.name)).toEqual(
      expect.arrayContaining(['MessagingStateful', 'MessagingApi', 'MessagingDashboard']),
    );
    // What a report prints: the highest use of each quota.
    console.log(
      highestUsage(rows)
        .map((r) => `${r.quota}: ${r.used} of ${QUOTAS[r.quota].limit} ${QUOTAS[r.quota].unit} (${r.where})`)
        .join('\n'),
    );
  });

  it('stays below every quota with headroom', () => {
    expect(overQuota(rows)).toEqual([]);
  });

  it('counts what it is meant to count', () => {
    const top = Object.fromEntries(highestUsage(rows).map((r) => [r.quota, r.used]));
    // 2 prefixes per route and the $default route; 9 indexes on Main.
    expect(top.routesPerHttpApi).toBeGreaterThan(100);
    expect(top.indexesPerTable).toBe(9);
    // The API stack is too large to pass inline (51,200 bytes): the CDK uploads it to the bootstrap bucket.
    expect(top.templateBytes).toBeGreaterThan(51_200);
    expect(top.environmentBytes).toBeGreaterThan(200);
    expect(top.inlinePolicyCharsPerRole).toBeGreaterThan(500);
    expect(top.resourcePolicyBytes).toBeGreaterThan(300);
    // The most on one event source: stream-reactions (messages, disabled users, bookings, changed customers),
    // one under AWS's limit of five.
    expect(top.filtersPerEventSource).toBe(4);
  });

  it('reports a template over a quota with the limit it guards', () => {
    const routes = Array.from({ length: 241 }, (_, i) => [
      `R${i}`,
      { Type: 'AWS::ApiGatewayV2::Route', Properties: { ApiId: { Ref: 'Api' }, RouteKey: `GET /r${i}` } },
    ]);
    const over = overQuota(
      quotaUsage([{ name: 'Big', body: JSON.stringify({ Resources: Object.fromEntries(routes) }) }]),
    );
    expect(over).toEqual([
      expect.stringMatching(
        /^Big\/Api: 241 routes, over the 240 kept as headroom below API Gateway routes per HTTP API \(300/,
      ),
    ]);
  });

  it("gives the preflight what the app needs: no reservation, the CDK's bootstrap version, the realtime stage's need of the account role", () => {
    expect(appFacts(templates, {})).toMatchObject({
      reservedConcurrency: 0,
      bootstrapVersion: 6,
      // The realtime WebSocket stage logs its access lines: API Gateway needs the account's logging role for that.
      stagesNeedingAccountRole: [expect.stringMatching(/RealtimeStage/)],
      createsAccountRole: false,
      // The edge stack's web ACL, which exists only in us-east-1.
      cloudFrontWebAcls: [expect.stringMatching(/^MessagingEdge\//)],
    });
  });

  it(`costs at most $${IDLE_TARGET_DOLLARS} a month at zero traffic`, () => {
    const idle = idleCost(templates);
    expect(idle.find((i) => i.item === 'CloudWatch alarms')?.quantity).toBeGreaterThan(10);
    // The JWT key, platform token and data key at least, each priced once.
    const secrets = templates.reduce((n, t) => n + t.body.split('"AWS::SecretsManager::Secret"').length - 1, 0);
    expect(secrets).toBeGreaterThanOrEqual(3);
    expect(idle.find((i) => i.item === 'Secrets Manager secrets')?.quantity).toBe(secrets);
    expect(total(idle)).toBeLessThanOrEqual(IDLE_TARGET_DOLLARS);
  });
});
