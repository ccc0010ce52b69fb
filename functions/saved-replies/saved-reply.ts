import type { Sender } from '../auth/principal';

/**
 * A saved reply (a canned response): text the team sends often, found by its shortcut (`/thanks` in the
 * dashboard's composer). Its text may hold placeholders, `{{customer.first_name}}` or, with a fallback
 * for when the value is unknown, `{{customer.first_name | there}}`, filled in for one conversation.
 */
export interface SavedReply {
  id: string;
  tenant_id: string;
  shortcut: string;
  title: string;
  text: string;
  created_by: Sender;
  created_at: string;
  updated_at: string;
  version: number;
}

export const SAVED_REPLY_FIELDS = [
  'id',
  'tenant_id',
  'shortcut',
  'title',
  'text',
  'created_by',
  'created_at',
  'updated_at',
  'version',
] as const satisfies readonly (keyof SavedReply)[];

/** Lower-case letters, digits, `-` and `_`, starting with a letter or digit: typed after a `/`. */
export const SHORTCUT_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** What a placeholder can name, and where its value comes from. */
export const PLACEHOLDERS = [
  'customer.name',
  'customer.first_name',
  'customer.phone',
  'agent.name',
  'agent.first_name',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Partial<Record<Placeholder, string | null>>;

const isPlaceholder = (name: string): name is Placeholder => (PLACEHOLDERS as readonly string[]).includes(name);

/** `{{ name }}` or `{{ name | fallback }}`; the fallback is any text without braces or a bar. */
const PLACEHOLDER = /\{\{([^{}|]*)(?:\|([^{}|]*))?\}\}/g;

/** The most problems one text reports: enough to fix, never a problem document the size of the text. */
const MAX_PROBLEMS = 5;

/**
 * What is wrong with a text's placeholders, one message per problem: each unknown name (once), or braces
 * that do not make a placeholder. Empty when the text is fine (a text without braces always is).
 */
export function placeholderProblems(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = (match[1] ?? '').trim();
    if (!isPlaceholder(name)) unknown.add(name.slice(0, 40));
  }
  const problems = [...unknown].map((name) => `unknown placeholder {{${name}}}: use one of ${PLACEHOLDERS.join(', ')}`);
  const rest = text.replace(PLACEHOLDER, '');
  if (rest.includes('{{') || rest.includes('}}'))
    problems.push('has braces that are not a placeholder: write {{customer.name}} or {{customer.name | fallback}}');
  return problems.slice(0, MAX_PROBLEMS);
}

/** The first word of a name, for a greeting ("Maria" of "Maria Lopez"). */
export const firstName = (name: string | null | undefined): string | null => name?.trim().split(/\s+/)[0] || null;

/**
 * The text with each placeholder replaced by its value, else by its fallback, else by nothing, and
 * trimmed (a greeting's missing name leaves no space at the end); `missing` names the placeholders that
 * had neither (so a person can fill them in before sending).
 */
export function fillPlaceholders(text: string, values: PlaceholderValues): { text: string; missing: Placeholder[] } {
  const missing = new Set<Placeholder>();
  const filled = text.replace(PLACEHOLDER, (whole, rawName: string, rawFallback: string | undefined) => {
    const name = rawName.trim();
    if (!isPlaceholder(name)) return whole;
    const value = values[name];
    if (value) return value;
    const fallback = rawFallback?.trim();
    if (fallback) return fallback;
    missing.add(name);
    return '';
  });
  return { text: filled.trim(), missing: PLACEHOLDERS.filter((p) => missing.has(p)) };
}

/** The values a conversation and the person answering it give the placeholders. */
export function placeholderValues(
  customer: { name: string | null; phone: string | null } | undefined,
  agentName: string | null | undefined,
): PlaceholderValues {
  return {
    'customer.name': customer?.name ?? null,
    'customer.first_name': firstName(customer?.name),
    'customer.phone': customer?.phone ?? null,
    'agent.name': agentName ?? null,
    'agent.first_name': firstName(agentName),
  };
}
