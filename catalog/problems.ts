/** Where a problem code is documented: its section of docs/problems.md, whose anchors are the codes. */
export const PROBLEM_DOCS_URL = 'https://docs.messaging.dev/problems';
export const problemType = (code: string): string => `${PROBLEM_DOCS_URL}#${code}`;
