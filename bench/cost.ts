/**
 * `npm run cost [-- -c key=value ...]`: what a deployment with these context values costs a month at zero
 * traffic, and per thousand conversations on top, from the app's synthesized templates (in process,
 * offline) and the list prices of bench/prices.ts. Exits 1 when the idle cost is over its target.
 */
import { parseArgs } from 'node:util';
import { synthesizeTemplates } from '../scripts/synthesized';
import { formatCost, idleCost, perThousandConversations } from './idle-cost';

const { values } = parseArgs({ options: { context: { type: 'string', short: 'c', multiple: true } } });
const context: Record<string, string> = {};
for (const pair of values.context ?? []) {
  const at = pair.indexOf('=');
  if (at < 1) {
    console.error(`cost: -c takes key=value (got ${pair})`);
    process.exit(1);
  }
  context[pair.slice(0, at)] = pair.slice(at + 1);
}
console.error('cost: synthesizing the app (offline, about 20 s)…');
const templates = synthesizeTemplates(context);
const idle = idleCost(templates);
const waf = templates.some((t) => t.body.includes('"AWS::WAFv2::WebACL"'));
const { text, withinTarget } = formatCost(idle, perThousandConversations({ bedrock: !!context.bedrockModelId, waf }));
console.log(text);
if (!withinTarget) process.exitCode = 1;
