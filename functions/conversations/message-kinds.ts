// Public: the message kinds and their content, for the channel sender.
/** What an outbound message can be beyond text, with WhatsApp's documented limits. Pure: no AWS imports. */

export const MEDIA_KINDS = ['image', 'document', 'audio', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
export const MESSAGE_TYPES = ['text', 'template', ...MEDIA_KINDS, 'interactive'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** WhatsApp Cloud API limits for what a business sends (Meta's "Messages" reference). */
export const WHATSAPP_LIMITS = {
  text: 4096,
  caption: 1024,
  filename: 240,
  interactiveBody: 1024,
  interactiveHeader: 60,
  interactiveFooter: 60,
  replyButtons: 3,
  replyButtonTitle: 20,
  replyButtonId: 256,
  listButton: 20,
  listSections: 10,
  listRows: 10,
  listRowTitle: 24,
  listRowDescription: 72,
  listRowId: 200,
  sectionTitle: 24,
} as const;

export interface TemplateContent {
  name: string;
  language: string;
  parameters: { header?: string[]; body?: string[]; buttons?: string[] };
  /** The template's id here, when the send found it (a WhatsApp or sandbox template). */
  template_id?: string | null;
  /** What each quick-reply button's tap carries back, in button order (a reminder's answers). */
  quick_reply_payloads?: string[];
}
export interface MediaContent {
  /** A public https link WhatsApp fetches; or, instead, */
  url?: string;
  /** a file uploaded here (POST /media/uploads), uploaded to WhatsApp when the message goes. */
  media_id?: string;
  caption?: string | null;
  filename?: string | null;
}
export type InteractiveContent =
  | {
      type: 'button';
      header?: string | null;
      body: string;
      footer?: string | null;
      buttons: { id: string; title: string }[];
    }
  | {
      type: 'list';
      header?: string | null;
      body: string;
      footer?: string | null;
      button: string;
      sections: { title?: string | null; rows: { id: string; title: string; description?: string | null }[] }[];
    };

/** A message's kind-specific part, as stored and returned (`content`); null for text. */
export type MessageContent =
  | { template: TemplateContent }
  | { image: MediaContent }
  | { document: MediaContent }
  | { audio: MediaContent }
  | { video: MediaContent }
  | { interactive: InteractiveContent };

/** What a send asks for: exactly one kind. */
export type OutboundKind =
  | { type: 'text'; text: string }
  | { type: 'template'; template: TemplateContent }
  | { type: MediaKind; media: MediaContent }
  | { type: 'interactive'; interactive: InteractiveContent };

export const contentOf = (kind: OutboundKind): MessageContent | null => {
  switch (kind.type) {
    case 'text':
      return null;
    case 'template':
      return { template: kind.template };
    case 'interactive':
      return { interactive: kind.interactive };
    default:
      return { [kind.type]: kind.media } as MessageContent;
  }
};

/** The text a message shows in the inbox, a preview and the AI's input, for kinds that are not text. */
export function textOf(kind: OutboundKind): string {
  switch (kind.type) {
    case 'text':
      return kind.text;
    case 'template':
      return `[template ${kind.template.name}]`;
    case 'interactive': {
      const i = kind.interactive;
      const choices =
        i.type === 'button'
          ? i.buttons.map((b) => `[${b.title}]`)
          : [`[${i.button}]`, ...i.sections.flatMap((s) => s.rows.map((r) => `- ${r.title}`))];
      return [i.header, i.body, i.footer, choices.join(i.type === 'button' ? ' ' : '\n')].filter(Boolean).join('\n');
    }
    default: {
      const name = kind.media.filename ? ` ${kind.media.filename}` : '';
      return kind.media.caption ? `[${kind.type}${name}] ${kind.media.caption}` : `[${kind.type}${name}]`;
    }
  }
}

/** The kind a stored message is, from its type and content (for the sender). */
export function kindOf(message: { type: string; text: string; content?: MessageContent | null }): OutboundKind {
  const c = (message.content ?? {}) as Record<string, unknown>;
  if (message.type === 'template' && c.template) return { type: 'template', template: c.template as TemplateContent };
  if (message.type === 'interactive' && c.interactive)
    return { type: 'interactive', interactive: c.interactive as InteractiveContent };
  if ((MEDIA_KINDS as readonly string[]).includes(message.type) && c[message.type])
    return { type: message.type as MediaKind, media: c[message.type] as MediaContent };
  return { type: 'text', text: message.text };
}

/**
 * The message object of POST /{phone_number_id}/messages for a kind (with `messaging_product`, `to` added
 * by the caller). An uploaded file goes by the id WhatsApp gave it (`graphMediaId`), a link by `link`.
 */
export function graphMessageOf(
  kind: OutboundKind,
  template?: Record<string, unknown>,
  graphMediaId?: string,
): Record<string, unknown> {
  switch (kind.type) {
    case 'text':
      return { type: 'text', text: { preview_url: false, body: kind.text } };
    case 'template':
      return { type: 'template', template };
    case 'interactive': {
      const i = kind.interactive;
      const common = {
        ...(i.header ? { header: { type: 'text', text: i.header } } : {}),
        body: { text: i.body },
        ...(i.footer ? { footer: { text: i.footer } } : {}),
      };
      return {
        type: 'interactive',
        interactive:
          i.type === 'button'
            ? {
                type: 'button',
                ...common,
                action: { buttons: i.buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })) },
              }
            : {
                type: 'list',
                ...common,
                action: {
                  button: i.button,
                  sections: i.sections.map((s) => ({
                    ...(s.title ? { title: s.title } : {}),
                    rows: s.rows.map((r) => ({
                      id: r.id,
                      title: r.title,
                      ...(r.description ? { description: r.description } : {}),
                    })),
                  })),
                },
              },
      };
    }
    default:
      return {
        type: kind.type,
        [kind.type]: {
          ...(graphMediaId ? { id: graphMediaId } : { link: kind.media.url }),
          ...(kind.media.caption && kind.type !== 'audio' ? { caption: kind.media.caption } : {}),
          ...(kind.media.filename && kind.type === 'document' ? { filename: kind.media.filename } : {}),
        },
      };
  }
}
