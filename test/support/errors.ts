import { ApiError } from '../../functions/platform/errors';

/** 'ok', or `<status>:<code>` of the ApiError the promise rejected with. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof ApiError ? `${error.status}:${error.code}` : String(error);
  }
}
