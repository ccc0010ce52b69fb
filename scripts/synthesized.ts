import { App } from 'aws-cdk-lib';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCdkApp } from '../lib/app';
import type { SynthesizedTemplate } from './quotas';

/**
 * Synthesizes the CDK app in this process, as `cdk synth` would with these context values but without
 * bundling the functions (templates are the same, only asset contents are skipped), and returns every
 * template it wrote, nested stacks included, as written. Offline; about 20 s.
 */
export function synthesizeTemplates(context: Record<string, string> = {}): SynthesizedTemplate[] {
  const outdir = mkdtempSync(join(tmpdir(), 'messaging-synth-'));
  try {
    const { app } = buildCdkApp(new App({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [] } }));
    app.synth();
    return templatesIn(outdir);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Every template a synth wrote to `outdir` (a cloud assembly), nested stacks included, as written. */
export function templatesIn(outdir: string): SynthesizedTemplate[] {
  return readdirSync(outdir)
    .filter((file) => file.endsWith('.template.json'))
    .sort()
    .map((file) => ({
      name: file.replace(/\.(nested\.)?template\.json$/, ''),
      body: readFileSync(join(outdir, file), 'utf8'),
    }));
}
