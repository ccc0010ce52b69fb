import { problemOf } from '../../functions/http/middleware';

/** 'ok', or `<status>:<code>` of the problem the promise's rejection becomes (an ApiError or a DomainError). */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    const problem = problemOf(error);
    return problem ? `${problem.status}:${problem.code}` : String(error);
  }
}
