import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The three SDKs build into the packages their registries take, offline, with the tools Debian 12 ships
 * (python3-build and python3-hatchling, gem, npm), and each package installs into an empty folder and
 * imports from there: what a user gets is complete, not just the source tree the SDK suites run from.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SDKS = join(ROOT, 'sdks');
const BUILD_TIMEOUT = 240_000;

/** The interpreter that has httpx (the wheel's one dependency): pyenv's python3 may lack it. */
const python = ['python3', '/usr/bin/python3'].find(
  (p) => spawnSync(p, ['-c', 'import httpx, build, hatchling'], { encoding: 'utf8' }).status === 0,
);

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'sdk-packages-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  execFileSync(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: BUILD_TIMEOUT,
  });

describe('the SDK packages', () => {
  it(
    'Python: the wheel builds without network (python3 -m build --no-isolation) and imports from where it is installed',
    () => {
      if (!python)
        throw new Error(
          'python3 with httpx, build and hatchling is needed: apt-get install python3-httpx python3-build python3-hatchling',
        );
      const dist = join(scratch, 'python-dist');
      // Debian 12's hatchling declares `editables` (used only for editable installs), which Debian does not
      // package: the dependency check is skipped, the backend itself is Debian's hatchling.
      run(python, ['-m', 'build', '--no-isolation', '--skip-dependency-check', '--wheel', '--outdir', dist, '.'], {
        cwd: join(SDKS, 'python'),
      });
      const [wheel] = readdirSync(dist).filter((f) => f.endsWith('.whl'));
      expect(wheel).toMatch(/^messaging_platform-\d+\.\d+\.\d+-py3-none-any\.whl$/);
      // A pure-Python wheel installs by unpacking it into a folder on the path (as pip --target does).
      const site = join(scratch, 'python-site');
      run(python, ['-m', 'zipfile', '-e', join(dist, wheel as string), site], { cwd: scratch });
      const out = run(
        python,
        [
          '-c',
          'import messaging_platform as m; from messaging_platform import MessagingClient, AsyncMessagingClient; ' +
            'c = MessagingClient(api_key="sk_x", tenant_id="t", base_url="http://127.0.0.1:9"); ' +
            'print(m.__file__); print(m.__version__); print(callable(c.conversations.messages.send), callable(c.customers.find_by_phone))',
        ],
        { cwd: scratch, env: { PYTHONPATH: site, PYTHONNOUSERSITE: '1' } },
      ).split('\n');
      expect(out[0]).toBe(join(site, 'messaging_platform', '__init__.py'));
      expect(out[1]).toMatch(/^\d+\.\d+\.\d+$/);
      expect(out[2]).toBe('True True');
      expect(existsSync(join(site, 'messaging_platform', 'py.typed'))).toBe(true);
    },
    BUILD_TIMEOUT,
  );

  it(
    'Ruby: the gem builds (gem build) and installs into an empty GEM_HOME, from which it loads',
    () => {
      const dist = join(scratch, 'ruby-dist');
      run('gem', ['build', 'messaging_platform.gemspec', '--output', join(scratch, 'messaging_platform.gem')], {
        cwd: join(SDKS, 'ruby'),
      });
      run(
        'gem',
        [
          'install',
          '--local',
          '--no-document',
          '--ignore-dependencies',
          '--install-dir',
          dist,
          join(scratch, 'messaging_platform.gem'),
        ],
        {
          cwd: scratch,
        },
      );
      const out = run(
        'ruby',
        [
          '-e',
          'require "messaging_platform"; c = MessagingPlatform::Client.new(api_key: "sk_x", tenant_id: "t", base_url: "http://127.0.0.1:9"); ' +
            'puts $LOADED_FEATURES.grep(/messaging_platform\\.rb$/).first; puts MessagingPlatform::VERSION; ' +
            'puts [c.conversations.messages.respond_to?(:send_message), c.customers.respond_to?(:find_by_phone)].inspect',
        ],
        { cwd: scratch, env: { GEM_HOME: dist, GEM_PATH: dist, RUBYLIB: '' } },
      ).split('\n');
      expect(out[0]?.startsWith(dist)).toBe(true);
      expect(out[1]).toMatch(/^\d+\.\d+\.\d+$/);
      expect(out[2]).toBe('[true, true]');
    },
    BUILD_TIMEOUT,
  );

  it(
    'TypeScript: the npm tarball packs (npm pack builds it) and installs offline, and both module formats load',
    () => {
      const sdk = join(SDKS, 'typescript');
      if (!existsSync(join(sdk, 'node_modules', 'typescript')))
        run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: sdk });
      // Packed from a copy of the package: prepack's build replaces dist/, which the SDK suite (npm test
      // runs it at the same time) imports from the package folder itself.
      const copy = join(scratch, 'typescript-sdk');
      cpSync(sdk, copy, {
        recursive: true,
        filter: (source) => !['node_modules', 'dist'].includes(source.slice(sdk.length + 1).split('/')[0] ?? ''),
      });
      symlinkSync(join(sdk, 'node_modules'), join(copy, 'node_modules'));
      // prepack's build prints to stdout too: the JSON report is what follows it.
      const report = run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: copy });
      const packed = JSON.parse(report.slice(report.search(/^\[/m))) as {
        filename: string;
        files: { path: string }[];
      }[];
      const tarball = join(scratch, packed[0]?.filename as string);
      expect(packed[0]?.files.map((f) => f.path)).toEqual(
        expect.arrayContaining(['dist/esm/index.js', 'dist/cjs/index.js', 'README.md']),
      );
      const app = join(scratch, 'npm-app');
      run('mkdir', ['-p', app], { cwd: scratch });
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
      run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: app });
      const script =
        'const client = new MessagingClient({ apiKey: "sk_x", tenantId: "t", baseUrl: "http://127.0.0.1:9" }); ' +
        'console.log(typeof client.conversations.messages.send, typeof client.customers.findByPhone, typeof client.meta.openapi);';
      const esm = run(
        process.execPath,
        ['--input-type=module', '-e', `import { MessagingClient } from '@messaging-platform/sdk'; ${script}`],
        { cwd: app },
      );
      const cjs = run(
        process.execPath,
        ['-e', `const { MessagingClient } = require('@messaging-platform/sdk'); ${script}`],
        { cwd: app },
      );
      expect(esm.trim()).toBe('function function function');
      expect(cjs.trim()).toBe('function function function');
    },
    BUILD_TIMEOUT,
  );
});
