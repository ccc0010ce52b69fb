import Icon from '@cloudscape-design/components/icon';
import { fillParameters, type Template } from '../templates';
import '../whatsapp.css';

export interface TemplateValues {
  header?: readonly string[];
  body?: readonly string[];
  /** One per button (a URL button's parameter). */
  buttons?: readonly string[];
}

const MEDIA_WORDS = { image: 'Image', video: 'Video', document: 'Document' } as const;

/** A text with its parameters: values shown marked, missing ones as their `{{n}}`. */
function Filled({ text, values }: { text: string; values: readonly string[] | undefined }) {
  return (
    <>
      {fillParameters(text, values ?? []).map((part, i) =>
        part.parameter === undefined ? (
          part.text
        ) : (
          <mark key={i} className={part.filled ? 'parameter' : 'parameter missing'}>
            {part.text}
          </mark>
        ),
      )}
    </>
  );
}

/**
 * A template as the customer's WhatsApp shows it: the header, the body, the footer and the buttons under
 * the bubble, with the parameters filled in (the examples while writing one, the values typed when sending).
 */
export function TemplatePreview({
  template: t,
  values,
  label = 'Preview',
}: {
  template: Pick<Template, 'header' | 'body' | 'footer' | 'buttons'>;
  values: TemplateValues;
  label?: string;
}) {
  const header = t.header;
  return (
    <figure className="template-preview" aria-label={label}>
      <div className="template-bubble">
        {header?.format === 'text' && header.text && (
          <p className="template-header">
            <Filled text={header.text} values={values.header} />
          </p>
        )}
        {header && header.format !== 'text' && (
          <div className="template-media">
            <Icon name={header.format === 'document' ? 'file' : header.format === 'video' ? 'video-on' : 'file-open'} />{' '}
            {MEDIA_WORDS[header.format]}
          </div>
        )}
        <p className="template-body">
          {t.body.text ? <Filled text={t.body.text} values={values.body} /> : <span className="empty">The body…</span>}
        </p>
        {t.footer?.text && <p className="template-footer">{t.footer.text}</p>}
      </div>
      {t.buttons.length > 0 && (
        <ul className="template-buttons" aria-label="Buttons">
          {t.buttons.map((b, i) => (
            <li key={i}>
              <Icon name={b.type === 'url' ? 'external' : 'undo'} size="small" />{' '}
              {b.text || (b.type === 'url' ? 'Link' : 'Reply')}
              {b.type === 'url' && b.url && (
                <span className="template-url">
                  {/^https?:\/\//.test(values.buttons?.[i] ?? '') ? (
                    // An example is the whole URL, as Meta asks; a value sent is the parameter alone.
                    <mark className="parameter">{values.buttons?.[i]}</mark>
                  ) : (
                    <Filled text={b.url} values={values.buttons?.[i] ? [values.buttons[i]] : []} />
                  )}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
