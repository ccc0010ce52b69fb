/**
 * What the dashboard's browser tests share: a tenant of their own with an admin (made through the platform
 * API of the local runtime that run.mjs started), the API as that tenant's key, Chromium, a page that
 * records its uncaught errors, signing in, choosing in a select, axe, screenshots (in
 * .scratch/dashboard-screenshots/) and the inbox's conversation cards.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { testRuntime } from '../../test/support/runtime';

export const SHOTS = fileURLToPath(new URL('../../.scratch/dashboard-screenshots/', import.meta.url));
const runtime = testRuntime();
/** The dashboard's origin (the local gateway serves it beside the API). */
export const BASE = runtime.url;
export const API = `${BASE}/api/v1`;
export const DESK = { width: 1366, height: 768 } as const;
export const PHONE = { width: 390, height: 844 } as const;
/** Unique to this run, for names and emails that must not meet an earlier run's. */
export const RUN = Date.now().toString(36);

export interface TestTenant {
  id: string;
  apiKey: string;
  admin: { email: string; password: string; name: string };
}

/** A new `pro` tenant with its admin (`<label>-<run>@dashboard.example`) and an API key. */
export async function createTestTenant(options: {
  label: string;
  name: string;
  adminName: string;
  timezone?: string;
}): Promise<TestTenant> {
  const admin = {
    email: `${options.label}-${RUN}@dashboard.example`,
    password: `a long ${options.label} test passphrase`,
    name: options.adminName,
  };
  const created = await fetch(`${API}/platform/tenants`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${runtime.platformToken}` },
    body: JSON.stringify({
      name: `${options.name} ${RUN}`,
      plan: 'pro',
      ...(options.timezone ? { timezone: options.timezone } : {}),
      admin,
    }),
  });
  const body = await created.json();
  assert.equal(created.status, 201, JSON.stringify(body));
  return { id: body.tenant.id, apiKey: body.api_key.key, admin };
}

/** A request to the API as the tenant's key; the body parsed. */
export async function tenantApi(
  tenant: TestTenant,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tenant.apiKey}`, 'X-Tenant-ID': tenant.id },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Debian's Chromium (CHROMIUM_PATH), as run.mjs found it; screenshots' folder made. */
export function launchChromium(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/**
 * A page in a context of its own (British English, reduced motion so axe measures settled colours) whose
 * uncaught errors, and with `consoleErrors` its console errors, are pushed to `errors`.
 */
export async function newPage(
  browser: Browser,
  options: {
    viewport: { width: number; height: number };
    errors: string[];
    timezoneId?: string;
    consoleErrors?: boolean;
  },
): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.viewport,
    locale: 'en-GB',
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => options.errors.push(error.message));
  if (options.consoleErrors)
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        options.errors.push(message.text());
    });
  return page;
}

/** Signs the tenant's admin in on the sign-in page; resolves once the inbox shows. */
export async function signIn(page: Page, tenant: TestTenant): Promise<void> {
  await page.goto(`${BASE}/sign-in`);
  await page.getByLabel('Email').fill(tenant.admin.email);
  await page.getByLabel('Password', { exact: true }).fill(tenant.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /^Inbox/, level: 1 }).waitFor();
}

/**
 * Chooses `option` in the select named `select` (its accessible name, as Playwright matches a name) within
 * `scope`, and waits until the select shows it. On a busy machine the dropdown can still be placing itself
 * when the click lands, so the click takes a neighbouring option, or the trigger's click opens nothing;
 * then it chooses again.
 */
export async function chooseOption(scope: Locator, select: string | RegExp, option: string): Promise<void> {
  const trigger = scope.getByRole('button', { name: select });
  // The page's: a dropdown may open outside the dialog that holds its select.
  const choice = scope.page().getByRole('option', { name: new RegExp(`^${option}`) });
  for (let attempt = 1; ; attempt++) {
    await trigger.click();
    // A click as the dialog still lays itself out may open nothing: then the trigger is clicked again.
    const opened = await choice.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (opened) await choice.click();
    const shown = (await trigger.textContent()) ?? '';
    if (shown.startsWith(option)) return;
    assert.ok(attempt < 3, `the select ${String(select)} shows "${shown}", not "${option}"`);
  }
}

/** Waits until a field holds `value` (a send's answer clears the box, maybe after realtime showed the message). */
export async function waitForValue(field: Locator, value: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let now = await field.inputValue();
  while (now !== value) {
    assert.ok(Date.now() < deadline, `the field holds ${JSON.stringify(now)}, not ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
    now = await field.inputValue();
  }
}

/**
 * Waits until `locator` matches `count` elements, then asserts it: what a page renders in answer to an event
 * (a media query's change when the window is resized) comes a render later.
 */
export async function waitForCount(locator: Locator, count: number, message: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while ((await locator.count()) !== count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.equal(await locator.count(), count, message);
}

/** axe on the current page: no serious or critical violation of WCAG 2.1 A and AA. */
export async function checkA11y(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  assert.deepEqual(bad, [], `accessibility violations on ${name}`);
}

export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

/** A conversation's card in the inbox list (its link reads the customer, the preview and the signals). */
export const conversationCard = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(`^${name}`) });
