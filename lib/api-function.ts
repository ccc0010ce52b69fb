import { AssetStaging, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
  Code,
} from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AI_MODEL_FILES,
  BUNDLING,
  BUNDLES_BESIDE,
  PACKAGES_BESIDE_BUNDLE,
  aliasArgs,
  besideFormat,
  besideImport,
  besidePackageJson,
  externalsFor,
  type BundleBeside,
  type DataFiles,
  type PackageBeside,
} from '../catalog/bundling';
import { bundlesBeside, packagesBeside } from '../catalog/packages-beside';
import { API_TIMEOUT_SECONDS, DEFAULT_MEMORY_MB } from '../catalog/functions';
import type { TableSpec } from '../catalog/resources';
import { METRICS } from '../catalog/workers';

const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

export const FUNCTIONS_DIR = fileURLToPath(new URL('../functions', import.meta.url));
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * A folder of bundles built ahead of the synth (lib/function-bundles.ts, for the infra tests): given, each
 * function takes its code from `<folder>/<bundleKey>` instead of bundling itself.
 */
export const PREBUILT_BUNDLES_CONTEXT = 'prebuiltBundles';

/** What a function's asset is made from: the bundle of its handler and the files copied beside it. */
export interface FunctionBundle {
  handler: string;
  define?: Record<string, string>;
  dataFiles: readonly DataFiles[];
  packages: readonly PackageBeside[];
  bundles: readonly BundleBeside[];
}

/** A folder name for a bundle: its handler, and a digest of the rest when there is more. */
export function bundleKey(bundle: FunctionBundle): string {
  const { handler, ...rest } = bundle;
  const digest = createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 12);
  return `${handler.replace(/\//g, '--')}-${digest}`;
}

export interface AppFunctionProps {
  /** Module under functions/, without extension, exporting `handler`. */
  handler: string;
  description?: string;
  environment?: Record<string, string>;
  memorySize?: number;
  timeout?: Duration;
  /** Caps (and guarantees) the function's concurrency: workers only. */
  reservedConcurrentExecutions?: number;
  /** An AI function: its asset also carries the trained model files (catalog/bundling.ts). */
  ai?: boolean;
  /** Other files its asset carries beside the bundle (catalog/bundling.ts). */
  dataFiles?: readonly DataFiles[];
  /** Values written into the bundle at build time (an HTTP handler's own route: catalog/bundling.ts). */
  define?: Record<string, string>;
}

/** A shell word holding `text` as it is (POSIX single quotes). */
const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The commands that build the bundles beside the function's: each only when the function's bundle kept its
 * import (catalog/bundling.ts `besideImport`), with NodejsFunction's esbuild (the project's own locally; the
 * image's in Docker) and the function's settings; then the package.json mapping their names.
 */
function besideBundleCommands(inputDir: string, outputDir: string, names: readonly BundleBeside[]): string[] {
  if (names.length === 0) return [];
  const esbuild =
    inputDir === AssetStaging.BUNDLING_INPUT_DIR ? 'esbuild' : shellWord(`${inputDir}/node_modules/.bin/esbuild`);
  const kept = (name: BundleBeside) =>
    `grep -qF ${shellWord(besideImport(name))} ${shellWord(`${outputDir}/index.mjs`)}`;
  const build = (name: BundleBeside, { format, banner } = besideFormat(name)) =>
    [
      esbuild,
      shellWord(`${inputDir}/${BUNDLES_BESIDE[name].source}`),
      '--bundle',
      `--target=${BUNDLING.target}`,
      `--platform=${BUNDLING.platform}`,
      `--format=${format}`,
      ...(BUNDLING.minify ? ['--minify'] : []),
      `--main-fields=${BUNDLING.mainFields.join(',')}`,
      ...(banner ? [`--banner:js=${shellWord(banner)}`] : []),
      '--log-level=warning',
      ...aliasArgs(inputDir).map((alias) => `--alias:${shellWord(alias)}`),
      `--outfile=${shellWord(`${outputDir}/${BUNDLES_BESIDE[name].file}`)}`,
    ].join(' ');
  return [
    ...names.map((name) => `if ${kept(name)}; then ${build(name)}; fi`),
    `if ${names.map(kept).join(' || ')}; then printf '%s' ${shellWord(besidePackageJson(names))} > ${shellWord(`${outputDir}/package.json`)}; fi`,
  ];
}

/**
 * The one place that fixes function defaults: arm64, nodejs22.x, ESM, minified and tree-shaken (no source
 * maps: catalog/bundling.ts), memory from catalog/functions.ts, an explicit log group with retention, JSON logs
 * without the platform's per-request lines, and X-Ray tracing.
 */
export class AppFunction extends NodejsFunction {
  readonly bundle: FunctionBundle;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const dataFiles = [...(props.ai ? [AI_MODEL_FILES] : []), ...(props.dataFiles ?? [])];
    // Copied beside the bundle for the functions whose code loads them (catalog/bundling.ts).
    const packages = packagesBeside(props.handler);
    const bundles = bundlesBeside(props.handler);
    const bundle: FunctionBundle = { handler: props.handler, define: props.define, dataFiles, packages, bundles };
    const prebuilt = scope.node.tryGetContext(PREBUILT_BUNDLES_CONTEXT) as string | undefined;
    super(scope, id, {
      ...(prebuilt
        ? { code: Code.fromAsset(join(prebuilt, bundleKey(bundle))), handler: 'index.handler' }
        : { entry: join(FUNCTIONS_DIR, `${props.handler}.ts`), handler: 'handler' }),
      projectRoot: ROOT,
      depsLockFilePath: join(ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? DEFAULT_MEMORY_MB,
      timeout: props.timeout ?? Duration.seconds(API_TIMEOUT_SECONDS),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      tracing: Tracing.ACTIVE,
      logGroup,
      // JSON logs with the platform's own records at WARN: Lambda then writes no START, END and REPORT
      // lines (about 340 bytes a request, a third of a list request's log bytes), while timeouts and
      // crashes are still logged. Duration and errors stay in Lambda's metrics; Powertools honours the
      // application level and writes its JSON lines (and EMF metrics) as they are.
      loggingFormat: LoggingFormat.JSON,
      systemLogLevelV2: SystemLogLevel.WARN,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      description: props.description,
      environment: {
        POWERTOOLS_SERVICE_NAME: METRICS.service,
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: BUNDLING.target,
        minify: BUNDLING.minify,
        sourceMap: BUNDLING.sourcemap,
        mainFields: BUNDLING.mainFields,
        banner: BUNDLING.banner,
        bundleAwsSDK: true,
        logLevel: LogLevel.WARNING,
        // BUNDLING.alias: its paths are from the project root, where a local build runs; a Docker build
        // runs in the project's copy (workingDirectory).
        esbuildArgs: { '--alias': aliasArgs() },
        workingDirectory: AssetStaging.BUNDLING_INPUT_DIR,
        externalModules: externalsFor(props.handler),
        ...(props.define ? { define: props.define } : {}),
        ...(dataFiles.length > 0 || packages.length > 0 || bundles.length > 0
          ? {
              commandHooks: {
                beforeBundling: () => [],
                beforeInstall: () => [],
                afterBundling: (inputDir: string, outputDir: string) => [
                  ...dataFiles.flatMap((files) => [
                    `mkdir -p "${outputDir}/${files.to}"`,
                    `cp "${inputDir}/${files.from}"/${files.pattern} "${outputDir}/${files.to}/"`,
                  ]),
                  // The installed copy (the lockfile's version), only the files Node loads: no npm run, no network.
                  ...packages.flatMap((name) => [
                    `mkdir -p "${outputDir}/node_modules/${name}"`,
                    `tar -C "${inputDir}/node_modules/${name}" --exclude='*.map' --exclude='*.d.ts' -cf - ${PACKAGES_BESIDE_BUNDLE[name].join(' ')} | tar -C "${outputDir}/node_modules/${name}" -xf -`,
                  ]),
                  ...besideBundleCommands(inputDir, outputDir, bundles),
                ],
              },
            }
          : {}),
      },
    });
    this.bundle = bundle;
  }

  /** API-key authentication records `last_used_at`: allowed on API-key items only, whatever the route. */
  grantApiKeyTouch(table: ITableV2, keyPrefix: string): void {
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keyPrefix}*`] } },
      }),
    );
  }

  /**
   * Least privilege: exact actions on the table and its named indexes (no index/* wildcard), and
   * read-only functions get read actions only.
   */
  grantTable(table: ITableV2, spec: TableSpec, access: 'read' | 'write'): void {
    const actions = access === 'read' ? READ_ACTIONS : [...READ_ACTIONS, ...WRITE_ACTIONS];
    const resources = [table.tableArn, ...spec.indexes.map((index) => `${table.tableArn}/index/${index.name}`)];
    this.addToRolePolicy(new PolicyStatement({ actions, resources }));
  }
}
