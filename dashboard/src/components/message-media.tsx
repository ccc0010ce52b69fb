/**
 * Files in the thread and in the composer: a message's media shown inline (images, audio and video players,
 * document links), and the composer's Attach, which uploads a file to its presigned URL and sends it.
 */
import { useRef, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { components, Message } from '@messaging-platform/sdk';
import { useAction, useApp } from '../context';
import { ErrorAlert, fieldError } from './errors';
import '../whatsapp.css';

type MessageMedia = components['schemas']['MessageMedia'];
type MediaUpload = components['schemas']['MediaUpload'];
type AttachmentType = MessageMedia['type'];
type SentKind = 'image' | 'document' | 'audio' | 'video';

const KIND_WORDS: Record<AttachmentType, string> = {
  image: 'image',
  document: 'document',
  audio: 'voice message or audio',
  video: 'video',
  sticker: 'sticker',
};

/** A size in bytes as a person reads it: 48 KB, 2.4 MB. */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A file a message carries, shown in its bubble: pending, failed, or stored (inline where the kind allows). */
function StoredMedia({ media }: { media: MessageMedia }) {
  const kind = KIND_WORDS[media.type];
  if (media.status === 'pending') return <StatusIndicator type="loading">{`Receiving the ${kind}…`}</StatusIndicator>;
  if (media.status === 'failed' || !media.download_url)
    return (
      <StatusIndicator type="error">
        {`The ${kind} could not be kept${media.error ? `: ${media.error.message}` : '.'}`}
      </StatusIndicator>
    );
  const label = media.caption || media.filename || `The customer's ${kind}`;
  const url = media.download_url;
  switch (media.type) {
    case 'image':
    case 'sticker':
      return (
        <a href={url} target="_blank" rel="noreferrer" className="media-link">
          <img
            className={media.type === 'sticker' ? 'message-media sticker' : 'message-media'}
            src={url}
            alt={label}
            loading="lazy"
          />
        </a>
      );
    case 'video':
      return <video className="message-media" src={url} controls preload="metadata" aria-label={label} />;
    case 'audio':
      return <audio className="message-audio" src={url} controls preload="metadata" aria-label={label} />;
    default:
      return (
        <span className="media-document">
          <Link href={url} external externalIconAriaLabel="(opens in a new tab)">
            {media.filename ?? 'Document'}
          </Link>
          <Box variant="small" color="text-body-secondary">
            {[media.mime_type, formatSize(media.size)].filter(Boolean).join(' · ')}
          </Box>
        </span>
      );
  }
}

/** A file sent by link (`content.image.url` …): a link, since the page shows only files the platform keeps. */
function linkedMedia(message: Message): { kind: SentKind; url: string; filename?: string | null } | null {
  const content = message.content as Partial<Record<SentKind, { url?: string; filename?: string | null }>> | null;
  for (const kind of ['image', 'video', 'audio', 'document'] as const) {
    const url = content?.[kind]?.url;
    if (url) return { kind, url, filename: content?.[kind]?.filename };
  }
  return null;
}

/**
 * What a message carries besides its words: its file (inline) and caption, or a file sent by link. True
 * when it shows a file, so the bubble leaves out the placeholder text ("[image] …") that says the same.
 */
export function MessageFile({ message }: { message: Message }) {
  const media = message.media;
  if (media)
    return (
      <div className="message-file" data-testid="message-media" data-media-type={media.type}>
        <StoredMedia media={media} />
        {media.caption && <p className="message-text">{media.caption}</p>}
      </div>
    );
  const linked = linkedMedia(message);
  if (!linked) return null;
  return (
    <div className="message-file" data-testid="message-media" data-media-type={linked.kind}>
      <Link href={linked.url} external externalIconAriaLabel="(opens in a new tab)">
        {linked.filename ?? `${linked.kind.charAt(0).toUpperCase()}${linked.kind.slice(1)} by link`}
      </Link>
    </div>
  );
}

/** Whether the bubble shows a file in place of the message's text. */
export const showsFile = (message: Message): boolean => !!message.media || linkedMedia(message) !== null;

/** The kind WhatsApp sends a file as, from its MIME type: its own players for images, audio and video; else a document. */
function kindOf(file: File): SentKind {
  if (file.type === 'image/jpeg' || file.type === 'image/png') return 'image';
  if (file.type.startsWith('video/')) return 'video';
  if (file.type.startsWith('audio/')) return 'audio';
  return 'document';
}

/**
 * The composer's Attach: a button beside Send (`button`) that picks a file, and above the reply box
 * (`panel`) the chosen file with a caption and Send file. The file is declared to the API (kind, type, size:
 * WhatsApp's limits are checked there), PUT to the presigned URL it returns, then sent by its `media_id`.
 */
export function useAttachFile(conversationId: string, onSent: () => void) {
  const { client, flash } = useApp();
  const picker = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const action = useAction();
  const kind = file ? kindOf(file) : 'document';
  const send = async () => {
    if (!file) return;
    const sent = await action.run(async () => {
      const upload = await client.request<MediaUpload>('POST', '/media/uploads', {
        body: {
          type: kind,
          mime_type: file.type || 'application/octet-stream',
          size: file.size,
          ...(kind === 'document' ? { filename: file.name } : {}),
        },
      });
      const put = await fetch(upload.upload_url, { method: upload.method, headers: upload.headers, body: file });
      if (!put.ok) throw new Error(`The file could not be uploaded (${put.status}). Try again.`);
      const part = {
        media_id: upload.media_id,
        ...(kind !== 'audio' && caption.trim() ? { caption: caption.trim() } : {}),
        ...(kind === 'document' ? { filename: file.name } : {}),
      };
      return client.conversations.messages.send(conversationId, { [kind]: part });
    });
    if (!sent) return;
    flash({ type: 'success', content: `${file.name} is sent.` });
    setFile(null);
    setCaption('');
    onSent();
  };
  const button = (
    <>
      <input
        ref={picker}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="File to attach"
        onChange={(e) => {
          const chosen = e.currentTarget.files?.[0] ?? null;
          e.currentTarget.value = '';
          if (!chosen) return;
          action.clearError();
          setFile(chosen);
        }}
      />
      <Button iconName="upload" onClick={() => picker.current?.click()}>
        Attach
      </Button>
    </>
  );
  const panel = file ? (
    <div role="group" aria-label="File to send">
      <SpaceBetween size="xs">
        <ErrorAlert error={action.error} onDismiss={action.clearError} atFields={['mime_type', 'size']} />
        <div className="schedule-fields">
          <FormField
            label={`${kind.charAt(0).toUpperCase()}${kind.slice(1)}`}
            errorText={fieldError(action.error, ['mime_type', 'size'], ['unsupported_media'])}
          >
            <Box>{`${file.name} (${formatSize(file.size)})`}</Box>
          </FormField>
          {kind !== 'audio' && (
            <FormField label="Caption (optional)">
              <Input value={caption} onChange={(e) => setCaption(e.detail.value)} />
            </FormField>
          )}
          <Button variant="primary" loading={action.busy} onClick={() => void send()}>
            Send file
          </Button>
          <Button variant="link" disabled={action.busy} onClick={() => setFile(null)}>
            Remove
          </Button>
        </div>
      </SpaceBetween>
    </div>
  ) : null;
  return { button, panel };
}
