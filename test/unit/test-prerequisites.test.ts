import {
  describeMissing,
  javaMajor,
  missingPrerequisites,
  pythonWithDeps,
  type Found,
  type Prerequisite,
} from '../../scripts/test-prerequisites';

const ALL: Prerequisite[] = ['java', 'openssl', 'python', 'python-build', 'ruby', 'chromium'];
const everything: Found = {
  javaVersion: 'openjdk version "17.0.13" 2024-10-15\nOpenJDK Runtime Environment (build 17.0.13+11-Debian-2deb12u1)',
  openssl: true,
  pythons: [{ command: 'python3', ok: true }],
  pythonBuild: true,
  ruby: 'ok',
  chromium: '/usr/bin/chromium',
};

describe("npm test's prerequisites", () => {
  it.each([
    ['openjdk version "17.0.13" 2024-10-15', 17],
    ['openjdk version "21" 2023-09-19', 21],
    ['java version "1.8.0_381"', 8],
    ['openjdk version "11.0.2" 2019-01-15', 11],
    ['openjdk version "22-ea" 2024-03-19', 22],
    ['no such thing', undefined],
  ])('reads the Java major version of %j as %s', (output, major) => {
    expect(javaMajor(output)).toBe(major);
  });

  it('finds nothing missing on a complete machine', () => {
    expect(missingPrerequisites(everything, ALL)).toEqual([]);
  });

  it('names every missing tool once, in order, with its install command on one line each', () => {
    const bare: Found = { openssl: false, pythons: [{ command: 'python3', ok: false }], ruby: 'missing' };
    const missing = missingPrerequisites(bare, [...ALL, 'java']);
    expect(missing.map((m) => [m.prerequisite, m.install])).toEqual([
      ['java', 'apt-get install openjdk-17-jre-headless'],
      ['openssl', 'apt-get install openssl'],
      ['python', 'apt-get install python3 python3-httpx python3-pytest'],
      ['python-build', 'apt-get install python3-httpx python3-build python3-hatchling'],
      ['ruby', 'apt-get install ruby ruby-minitest'],
      ['chromium', 'apt-get install chromium'],
    ]);
    const lines = describeMissing(missing).split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      'missing: Java 17+ for DynamoDB Local (no java on PATH) — install: apt-get install openjdk-17-jre-headless',
    );
  });

  it('refuses a Java older than 17, naming the version found', () => {
    const [missing] = missingPrerequisites({ ...everything, javaVersion: 'java version "1.8.0_381"' }, ['java']);
    expect(missing?.what).toContain('found Java 8');
  });

  it('checks only what the selected steps need', () => {
    const bare: Found = { openssl: false, pythons: [], ruby: 'missing' };
    expect(missingPrerequisites(bare, [])).toEqual([]);
    expect(missingPrerequisites(bare, ['chromium']).map((m) => m.prerequisite)).toEqual(['chromium']);
  });

  it("takes the first Python that has httpx and pytest (Debian's when an earlier one lacks them)", () => {
    const found: Found = {
      ...everything,
      pythons: [
        { command: 'python3', ok: false },
        { command: '/usr/bin/python3', ok: true },
      ],
    };
    expect(pythonWithDeps(found)).toBe('/usr/bin/python3');
    expect(missingPrerequisites(found, ['python'])).toEqual([]);
    const none = { ...found, pythons: found.pythons.map((p) => ({ ...p, ok: false })) };
    expect(missingPrerequisites(none, ['python'])[0]?.what).toContain('tried python3, /usr/bin/python3');
  });

  it('tells a Ruby without minitest from no Ruby', () => {
    expect(missingPrerequisites({ ...everything, ruby: 'no-minitest' }, ['ruby'])[0]?.what).toContain(
      'minitest cannot be loaded',
    );
  });
});
