/**
 * Where problem codes are documented: every deployment serves docs/problems.md at this path, one anchor per
 * code (the local gateway, and in AWS the API's `$default` route).
 */
export const PROBLEM_DOCS_PATH = '/docs/problems';

/**
 * The base of problem `type` URLs: PROBLEM_DOCS_URL when configured (an absolute address: `npm start` sets
 * its own, a deployment takes `-c problemDocsUrl=`), else the path, which a client resolves against the
 * API's address (RFC 9457 allows a relative `type`), so it reaches the docs the same deployment serves.
 */
export const problemDocsUrl = (): string => process.env.PROBLEM_DOCS_URL || PROBLEM_DOCS_PATH;

export const problemType = (code: string, base: string = problemDocsUrl()): string => `${base}#${code}`;
