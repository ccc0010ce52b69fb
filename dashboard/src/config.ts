/** Runtime configuration: `/config.json`, so one build runs against any API (`apiUrl` empty: same origin). */
export interface DashboardConfig {
  /** The API's origin (or absolute base ending in /api/v1), resolved against the page's own origin. */
  apiUrl: string;
}

export async function loadConfig(): Promise<DashboardConfig> {
  let apiUrl = '';
  try {
    const res = await fetch('/config.json', { cache: 'no-store' });
    if (res.ok) apiUrl = String(((await res.json()) as Partial<DashboardConfig>).apiUrl ?? '');
  } catch {
    // No config: the API is on this origin.
  }
  return { apiUrl: new URL(apiUrl || '/', window.location.origin).toString() };
}
