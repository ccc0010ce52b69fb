import { rmSync } from 'node:fs';
import { dashboardDist } from './synth';
import './stacks.cases';
import './dashboard.cases';
import './quotas.cases';
import './realtime.cases';

// One jest file for the infra cases, so that they share one synth (./synth.ts): jest gives every test
// file its own module registry, so two files would synthesize (and bundle) twice.
afterAll(() => rmSync(dashboardDist, { recursive: true, force: true }));
