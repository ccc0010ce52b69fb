import * as z from 'zod/mini';
import { outboundText } from '../conversations/outbound-text';
import { pageQuery } from '../platform/pagination';
import { idOf, nonEmptyPatch, trimmed, lazySchema } from '../platform/validation';
import { PLACEHOLDERS, SHORTCUT_PATTERN, placeholderProblems } from './saved-reply';

/** As typed in the composer: a leading `/` is not part of it. */
const withoutSlash = z.overwrite((value: string) => value.replace(/^\//, ''));

const shortcut = z.string().check(
  z.trim(),
  withoutSlash,
  z.toLowerCase(),
  z.regex(SHORTCUT_PATTERN, 'must be 1 to 32 letters, digits, - or _, starting with a letter or digit'),
  z.meta({
    description:
      'Unique in the tenant; typed after a `/` in the composer. Stored in lower case, without a leading `/`.',
  }),
);

const title = trimmed(1, 100).check(z.meta({ description: 'What the reply is for, as the team sees it in a list.' }));

const text = outboundText.check(
  z.superRefine((value, ctx) => {
    for (const message of placeholderProblems(value)) ctx.addIssue({ code: 'custom', message, input: value });
  }),
  z.meta({
    description:
      `The reply. Placeholders are filled in for a conversation by \`POST /saved-replies/{id}/render\`: ` +
      `${PLACEHOLDERS.map((p) => `\`{{${p}}}\``).join(', ')}; \`{{customer.first_name | there}}\` gives ` +
      '"there" when the value is not known.',
  }),
);

export const CreateSavedReplyBody = lazySchema(() => z.strictObject({ shortcut, title, text }));

export const UpdateSavedReplyBody = lazySchema(() =>
  nonEmptyPatch(z.strictObject({ shortcut: z.optional(shortcut), title: z.optional(title), text: z.optional(text) })),
);

export const ListSavedRepliesQuery = lazySchema(() =>
  z.strictObject({
    ...pageQuery,
    shortcut: z.optional(
      z.string().check(
        z.trim(),
        withoutSlash,
        z.toLowerCase(),
        z.minLength(1),
        z.maxLength(32),
        z.meta({
          description: 'Lists the saved replies whose shortcut starts with this text (a leading `/` is left off).',
        }),
      ),
    ),
  }),
);

export const RenderSavedReplyBody = lazySchema(() =>
  z.strictObject({
    conversation_id: idOf('conv', 'conversation').check(
      z.meta({ description: 'The conversation whose customer fills the `customer.*` placeholders.' }),
    ),
  }),
);
