/** WhatsApp message templates as the dashboard handles them: their parameters, filled in for a preview or a send. */
import type { components } from '@messaging-platform/sdk';

export type Template = components['schemas']['Template'];
export type TemplateButton = Template['buttons'][number];
export type TemplateHeader = NonNullable<Template['header']>;
export type TemplateStatus = Template['status'];

const PARAMETER = /\{\{(\d+)\}\}/g;

/** How many numbered parameters a text has: its highest `{{n}}` (Meta numbers them from 1 without gaps). */
export function parameterCount(text: string | null | undefined): number {
  let highest = 0;
  for (const match of (text ?? '').matchAll(PARAMETER)) highest = Math.max(highest, Number(match[1]));
  return highest;
}

/** A text split at its parameters, each `{{n}}` replaced by `values[n - 1]` when given. */
export function fillParameters(
  text: string,
  values: readonly (string | null | undefined)[],
): { text: string; parameter?: number; filled?: boolean }[] {
  const parts: { text: string; parameter?: number; filled?: boolean }[] = [];
  let at = 0;
  for (const match of text.matchAll(PARAMETER)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    const n = Number(match[1]);
    const value = values[n - 1];
    parts.push(value ? { text: value, parameter: n, filled: true } : { text: match[0], parameter: n, filled: false });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The parameters a template needs when sent: its text header's, its body's and its URL buttons'. */
export function templateParameters(t: Pick<Template, 'header' | 'body' | 'buttons'>): {
  header: number;
  body: number;
  buttons: number[];
} {
  return {
    header: t.header?.format === 'text' ? parameterCount(t.header.text) : 0,
    body: parameterCount(t.body.text),
    buttons: t.buttons.map((b) => (b.type === 'url' ? parameterCount(b.url) : 0)),
  };
}

/** Status words and colours, as the Templates page and the pickers show them. */
export const TEMPLATE_STATUS: Record<
  TemplateStatus,
  { label: string; indicator: 'pending' | 'success' | 'error' | 'warning' | 'stopped' }
> = {
  pending: { label: 'In review', indicator: 'pending' },
  approved: { label: 'Approved', indicator: 'success' },
  rejected: { label: 'Rejected', indicator: 'error' },
  paused: { label: 'Paused', indicator: 'warning' },
  disabled: { label: 'Disabled', indicator: 'stopped' },
};

/** Meta's reasons (`INVALID_FORMAT`), as a person reads them. */
export function reasonWords(reason: string | null | undefined): string {
  if (!reason || reason === 'NONE') return '';
  const known: Record<string, string> = {
    INVALID_FORMAT: 'the format is not valid',
    ABUSIVE_CONTENT: 'the content breaks WhatsApp’s policies',
    INCORRECT_CATEGORY: 'the category does not fit the content',
    TAG_CONTENT_MISMATCH: 'the category does not fit the content',
    PROMOTIONAL: 'it reads as marketing',
    SCAM: 'it looks like a scam',
  };
  return known[reason] ?? reason.toLowerCase().replace(/_/g, ' ');
}

/** A template's name and language, as pickers show it: "appointment_reminder (en_US)". */
export const templateLabel = (t: Pick<Template, 'name' | 'language'>): string => `${t.name} (${t.language})`;
