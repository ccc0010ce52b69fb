// Public: templates as Graph sends them, for the channel sender.
/** Our template's parts as Meta's `components` and back (WhatsApp Business Management API). Pure. */
import {
  MEDIA_HEADER_FORMATS,
  TEMPLATE_CATEGORIES,
  type Template,
  type TemplateButton,
  type TemplateParameters,
} from './template';

type Parts = Pick<Template, 'header' | 'body' | 'footer' | 'buttons'>;

/** The `components` of POST /{waba_id}/message_templates. */
export function metaComponents(t: Parts): Record<string, unknown>[] {
  const components: Record<string, unknown>[] = [];
  if (t.header?.format === 'text')
    components.push({
      type: 'HEADER',
      format: 'TEXT',
      text: t.header.text,
      ...(t.header.example ? { example: { header_text: [t.header.example] } } : {}),
    });
  else if (t.header)
    components.push({
      type: 'HEADER',
      format: t.header.format.toUpperCase(),
      ...(t.header.example_url ? { example: { header_handle: [t.header.example_url] } } : {}),
    });
  components.push({
    type: 'BODY',
    text: t.body.text,
    ...(t.body.examples.length ? { example: { body_text: [t.body.examples] } } : {}),
  });
  if (t.footer) components.push({ type: 'FOOTER', text: t.footer.text });
  if (t.buttons.length)
    components.push({
      type: 'BUTTONS',
      buttons: t.buttons.map((b) =>
        b.type === 'quick_reply'
          ? { type: 'QUICK_REPLY', text: b.text }
          : { type: 'URL', text: b.text, url: b.url, ...(b.example ? { example: [b.example] } : {}) },
      ),
    });
  return components;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : undefined);

/** Our parts of a template Meta lists (one made elsewhere, in WhatsApp Manager, is imported by a sync). */
export function partsOfMeta(components: Record<string, unknown>[] | undefined): Parts {
  const parts: Parts = { header: null, body: { text: '', examples: [] }, footer: null, buttons: [] };
  for (const c of components ?? []) {
    const example = (c.example ?? {}) as Record<string, unknown>;
    switch ((str(c.type) ?? '').toUpperCase()) {
      case 'HEADER': {
        const format = (str(c.format) ?? 'TEXT').toLowerCase();
        if (format === 'text')
          parts.header = { format: 'text', text: str(c.text) ?? '', example: str(first(example.header_text)) };
        else if ((MEDIA_HEADER_FORMATS as readonly string[]).includes(format))
          parts.header = {
            format: format as (typeof MEDIA_HEADER_FORMATS)[number],
            example_url: str(first(example.header_handle)),
          };
        break;
      }
      case 'BODY': {
        const examples = first(example.body_text);
        parts.body = {
          text: str(c.text) ?? '',
          examples: Array.isArray(examples) ? examples.map(String) : [],
        };
        break;
      }
      case 'FOOTER':
        parts.footer = { text: str(c.text) ?? '' };
        break;
      case 'BUTTONS':
        parts.buttons = (Array.isArray(c.buttons) ? (c.buttons as Record<string, unknown>[]) : []).flatMap(
          (b): TemplateButton[] => {
            const type = (str(b.type) ?? '').toUpperCase();
            if (type === 'QUICK_REPLY') return [{ type: 'quick_reply', text: str(b.text) ?? '' }];
            if (type === 'URL')
              return [{ type: 'url', text: str(b.text) ?? '', url: str(b.url) ?? '', example: str(first(b.example)) }];
            return [];
          },
        );
        break;
    }
  }
  return parts;
}

export const categoryOfMeta = (category: string | undefined): Template['category'] => {
  const lower = (category ?? '').toLowerCase();
  return (TEMPLATE_CATEGORIES as readonly string[]).includes(lower) ? (lower as Template['category']) : 'utility';
};

const textParameters = (values: readonly string[]) => values.map((text) => ({ type: 'text', text }));

/**
 * The `template` object of a send (POST /{phone_number_id}/messages, type `template`): name, language and
 * the components' parameters. A media header is sent by link.
 */
export function metaTemplateMessage(
  t: Template,
  p: TemplateParameters,
  quickReplyPayloads: readonly string[] = [],
  headerMediaUrl?: string,
): Record<string, unknown> {
  const components: Record<string, unknown>[] = [];
  if (p.header?.length) components.push({ type: 'header', parameters: textParameters(p.header) });
  else if (t.header && t.header.format !== 'text' && headerMediaUrl)
    components.push({
      type: 'header',
      parameters: [{ type: t.header.format, [t.header.format]: { link: headerMediaUrl } }],
    });
  if (p.body?.length) components.push({ type: 'body', parameters: textParameters(p.body) });
  let urlIndex = 0;
  let quickIndex = 0;
  t.buttons.forEach((b, index) => {
    if (b.type === 'quick_reply')
      // The payload comes back on the customer's tap (messages[].button.payload).
      components.push({
        type: 'button',
        sub_type: 'quick_reply',
        index: String(index),
        parameters: [{ type: 'payload', payload: quickReplyPayloads[quickIndex++] ?? quickReplyPayload(b.text) }],
      });
    else if (/\{\{1\}\}$/.test(b.url)) {
      const value = p.buttons?.[urlIndex++];
      if (value !== undefined)
        components.push({
          type: 'button',
          sub_type: 'url',
          index: String(index),
          parameters: [{ type: 'text', text: value }],
        });
    }
  });
  return { name: t.name, language: { code: t.language }, ...(components.length ? { components } : {}) };
}

/** What a quick-reply button's tap carries back: its text, as a stable slug. */
export const quickReplyPayload = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 128) || 'button';
