import { sqsWorker } from '../platform/workers';
import { runSettledPass, type SettledPass } from './settled-passes';

/** The SettledPasses queue's consumer: one pass per message; a failed pass is received again. */
export const handler = sqsWorker(async (record) => {
  await runSettledPass(JSON.parse(record.body) as SettledPass);
});
