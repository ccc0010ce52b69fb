// Public: the template model and its rules, for sends, reminders and events.
/** WhatsApp message templates: the shape, Meta's documented limits and the sandbox's review. Pure: no AWS imports. */

export const TEMPLATE_CATEGORIES = ['utility', 'marketing', 'authentication'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
/** Meta's review states, lower case (Meta spells them `APPROVED` …). */
export const TEMPLATE_STATUSES = ['pending', 'approved', 'rejected', 'paused', 'disabled'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];
export const MEDIA_HEADER_FORMATS = ['image', 'video', 'document'] as const;
export type TemplateChannel = 'sandbox' | 'whatsapp';

/** Meta's limits for template components (WhatsApp Business Management API, message templates). */
export const TEMPLATE_LIMITS = {
  name: 512,
  headerText: 60,
  bodyText: 1024,
  footerText: 60,
  buttons: 10,
  urlButtons: 2,
  buttonText: 25,
  url: 2000,
  /** A parameter's value when sent: Meta refuses longer ones. */
  parameterValue: 1024,
} as const;

export type TemplateHeader =
  | { format: 'text'; text: string; example: string | null }
  | { format: (typeof MEDIA_HEADER_FORMATS)[number]; example_url: string | null };
export type TemplateButton =
  { type: 'quick_reply'; text: string } | { type: 'url'; text: string; url: string; example: string | null };

export interface Template {
  id: string;
  tenant_id: string;
  channel: TemplateChannel;
  /** The WhatsApp number whose account (WABA) holds it; null on the sandbox. */
  channel_account_id: string | null;
  name: string;
  language: string;
  category: TemplateCategory;
  header: TemplateHeader | null;
  body: { text: string; examples: string[] };
  footer: { text: string } | null;
  buttons: TemplateButton[];
  status: TemplateStatus;
  /** Meta's reason for a rejection, pause or disable (`INVALID_FORMAT` …); null otherwise. */
  rejection_reason: string | null;
  /** Meta's id of the template (null on the sandbox). */
  provider_template_id: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export const TEMPLATE_FIELDS = [
  'id',
  'tenant_id',
  'channel',
  'channel_account_id',
  'name',
  'language',
  'category',
  'header',
  'body',
  'footer',
  'buttons',
  'status',
  'rejection_reason',
  'provider_template_id',
  'created_at',
  'updated_at',
  'version',
] as const satisfies readonly (keyof Template)[];

export const TEMPLATE_NAME = /^[a-z0-9_]+$/;
/** Meta's language codes: `en`, `en_US`, `pt_BR`, `zh_CN` … */
export const TEMPLATE_LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/;

/** The numbered parameters of a text, in order of appearance: `{{1}}`, `{{2}}` … */
export const parametersOf = (text: string): number[] =>
  [...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));

/**
 * Why a text's parameters break Meta's rules (undefined when they do not): numbered from 1 without gaps,
 * not at the very start or end of the text, and as many examples as parameters.
 */
export function parameterProblem(text: string, examples: readonly string[], most = Infinity): string | undefined {
  const numbers = parametersOf(text);
  const distinct = [...new Set(numbers)].sort((a, b) => a - b);
  if (/\{\{(?!\s*\d+\s*\}\})/.test(text)) return 'parameters are numbered: {{1}}, {{2}} …';
  if (distinct.length > most) return `at most ${most} parameter${most === 1 ? '' : 's'}`;
  if (distinct.some((n, i) => n !== i + 1)) return 'parameters are numbered from {{1}} without gaps';
  if (distinct.length && (/^\s*\{\{/.test(text) || /\}\}\s*$/.test(text)))
    return 'a parameter may not start or end the text (Meta rejects such templates)';
  if (examples.length !== distinct.length)
    return `give one example per parameter (${distinct.length} parameter${distinct.length === 1 ? '' : 's'}, ${examples.length} example${examples.length === 1 ? '' : 's'})`;
  return undefined;
}

/** The problems of a template's components, as field errors; empty when Meta would take it for review. */
export function templateProblems(
  t: Pick<Template, 'header' | 'body' | 'buttons'>,
): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const bodyProblem = parameterProblem(t.body.text, t.body.examples);
  if (bodyProblem) problems.push({ path: 'body', message: bodyProblem });
  if (t.header?.format === 'text') {
    const headerProblem = parameterProblem(t.header.text, t.header.example ? [t.header.example] : [], 1);
    if (headerProblem) problems.push({ path: 'header', message: headerProblem });
  }
  const urlButtons = t.buttons.filter((b) => b.type === 'url');
  if (urlButtons.length > TEMPLATE_LIMITS.urlButtons)
    problems.push({ path: 'buttons', message: `at most ${TEMPLATE_LIMITS.urlButtons} URL buttons` });
  // Meta groups quick replies together: they may not be split by another kind of button.
  const kinds = t.buttons.map((b) => b.type).filter((k, i, all) => i === 0 || all[i - 1] !== k);
  if (kinds.filter((k) => k === 'quick_reply').length > 1)
    problems.push({ path: 'buttons', message: 'quick-reply buttons must be next to each other' });
  t.buttons.forEach((b, i) => {
    if (b.type !== 'url') return;
    const dynamic = parametersOf(b.url);
    if (dynamic.length > 1 || (dynamic.length === 1 && !/\{\{1\}\}$/.test(b.url)))
      problems.push({ path: `buttons.${i}.url`, message: 'a URL may end with one parameter, {{1}}' });
    else if (dynamic.length === 1 && !b.example)
      problems.push({ path: `buttons.${i}.example`, message: 'give an example of the URL\u2019s parameter' });
  });
  return problems;
}

/** Values a send fills a template's parameters with. */
export interface TemplateParameters {
  header?: string[];
  body?: string[];
  /** One value per URL button with a parameter, in button order. */
  buttons?: string[];
}

export const parameterCount = (text: string | undefined) => new Set(parametersOf(text ?? '')).size;

/** Why a send's parameters do not fit the template (undefined when they do). */
export function sendParameterProblem(
  t: Template,
  p: TemplateParameters,
): { path: string; message: string } | undefined {
  const wanted = {
    header: t.header?.format === 'text' ? parameterCount(t.header.text) : 0,
    body: parameterCount(t.body.text),
    buttons: t.buttons.filter((b) => b.type === 'url' && parameterCount(b.url) > 0).length,
  };
  for (const part of ['header', 'body', 'buttons'] as const) {
    const given = p[part]?.length ?? 0;
    if (given !== wanted[part])
      return {
        path: `template.parameters.${part}`,
        message: `the template ${t.name} takes ${wanted[part]} ${part} parameter${wanted[part] === 1 ? '' : 's'}, not ${given}`,
      };
  }
  return undefined;
}

const fill = (text: string, values: readonly string[]) =>
  text.replace(/\{\{\s*(\d+)\s*\}\}/g, (_, n: string) => values[Number(n) - 1] ?? '');

/** The text a customer reads: header, body and footer with the parameters filled in, and the buttons. */
export function renderTemplate(
  t: Pick<Template, 'header' | 'body' | 'footer' | 'buttons'>,
  p: TemplateParameters,
): string {
  const parts = [
    t.header?.format === 'text' ? `*${fill(t.header.text, p.header ?? [])}*` : t.header ? `[${t.header.format}]` : '',
    fill(t.body.text, p.body ?? []),
    t.footer ? `_${t.footer.text}_` : '',
    t.buttons.length ? t.buttons.map((b) => `[${b.text}]`).join(' ') : '',
  ];
  return parts.filter(Boolean).join('\n\n');
}

/** Only an approved template may be sent. */
export function unsendableReason(t: Template): string | undefined {
  if (t.status === 'approved') return undefined;
  if (t.status === 'pending') return `The template ${t.name} (${t.language}) is still in review.`;
  return `The template ${t.name} (${t.language}) is ${t.status}${t.rejection_reason ? ` (${t.rejection_reason})` : ''}.`;
}

/** The sandbox's review: approved after a delay, rejected when the name asks for it (`…reject…`). */
export const sandboxVerdict = (name: string): { status: 'approved' | 'rejected'; reason: string | null } =>
  name.includes('reject') ? { status: 'rejected', reason: 'INVALID_FORMAT' } : { status: 'approved', reason: null };

/** Meta's webhook and Graph statuses (upper case) as ours; those we do not track (`PENDING_DELETION` …) are undefined. */
export function statusOfMeta(event: string | undefined): TemplateStatus | undefined {
  switch ((event ?? '').toUpperCase()) {
    case 'APPROVED':
    case 'REINSTATED':
      return 'approved';
    case 'PENDING':
    case 'IN_APPEAL':
      return 'pending';
    case 'REJECTED':
      return 'rejected';
    case 'PAUSED':
    case 'FLAGGED':
      return 'paused';
    case 'DISABLED':
    case 'DELETED':
    case 'PENDING_DELETION':
      return 'disabled';
    default:
      return undefined;
  }
}

/** A reason worth showing: Meta says `NONE` when there is none. */
export const reasonOfMeta = (reason: unknown): string | null =>
  typeof reason === 'string' && reason && reason.toUpperCase() !== 'NONE' ? reason.slice(0, 500) : null;
