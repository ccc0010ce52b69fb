import { notFound, unprocessable } from '../platform/errors';
import { isId } from '../platform/ids';
import { checkUrlForm, resolveTarget, UnsafeTarget } from './ssrf';
import { getEndpoint } from './store';

/** 422 for a URL the delivery worker would refuse: not https, credentials, too long, non-public host. */
export async function assertSafeUrl(raw: string): Promise<void> {
  try {
    await resolveTarget(checkUrlForm(raw));
  } catch (error) {
    if (error instanceof UnsafeTarget) throw unprocessable('unsafe_url', error.message, [{ path: 'url', message: error.message }]);
    throw error;
  }
}

export async function endpointOr404(tenantId: string, id: string | undefined) {
  const endpoint = id && isId('whk', id) ? await getEndpoint(tenantId, id) : undefined;
  if (!endpoint) throw notFound('The webhook');
  return endpoint;
}

/** The endpoint as the API shows it: never its secrets. */
export const endpointView = <T extends { secrets?: unknown }>({ secrets: _s, ...endpoint }: T): Omit<T, 'secrets'> => endpoint;
