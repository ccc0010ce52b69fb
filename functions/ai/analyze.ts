import { httpHandler, tenantPrincipal } from '../http/handler';
import { AnalyzeBody } from './schemas';
import { analyze } from './service';

/** Sentiment, intent, entities, language and a handoff recommendation for a text or a stored message. */
export const handler = httpHandler('ai-analyze', { body: AnalyzeBody }, async ({ body, principal, now }) => {
  const { tenant } = tenantPrincipal(principal);
  return { status: 200, body: await analyze(tenant, body, now) };
});
