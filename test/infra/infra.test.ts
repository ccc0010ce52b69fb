import { rmSync } from 'node:fs';
import { bundlesDir, dashboardDist } from './synth';
import './stacks.cases';
import './dashboard.cases';
import './quotas.cases';
import './realtime.cases';
import './bundles.cases';

// One jest file for the infra cases, so that they share one synth (./synth.ts): jest gives every test
// file its own module registry, so two files would synthesize (and bundle) twice.
afterAll(() => {
  for (const dir of [dashboardDist, bundlesDir]) rmSync(dir, { recursive: true, force: true });
});
