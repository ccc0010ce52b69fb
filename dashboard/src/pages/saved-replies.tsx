import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import Textarea from '@cloudscape-design/components/textarea';
import type { SavedReply } from '@messaging-platform/sdk';
import { useAction, useApp, useEditableList } from '../context';
import { ConfirmAction, DialogFooter, Empty, EmptyUnlessFailed, LoadOlder } from '../components/common';
import { ErrorAlert, fieldError } from '../components/errors';
import { formatDateTime } from '../format';

const REPLY_FIELDS = ['shortcut', 'title', 'text'];
const PAGE_SIZE = 50;

/** Settings › Saved replies: the team's canned responses, which the composer inserts by `/shortcut`. */
export function SavedRepliesPage() {
  const { client } = useApp();
  const {
    list: replies,
    more,
    shown,
    selected,
    setSelected,
    current,
    editing,
    setEditing,
    deleting,
    setDeleting,
    remove,
    done,
  } = useEditableList<SavedReply>((c, cursor) =>
    c.savedReplies.list({ limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }).page(),
  );

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description="Answers your team sends often. In a conversation, type / and the shortcut to insert one, filled in for that customer."
        >
          Saved replies
        </Header>
      }
    >
      <SpaceBetween size="l">
        <ErrorAlert error={replies.error} action={<Button onClick={() => void replies.reload()}>Retry</Button>} />
        <Table
          wrapLines
          variant="container"
          items={shown ?? []}
          loading={replies.loading && !replies.data}
          loadingText="Loading saved replies"
          trackBy="id"
          selectionType="single"
          selectedItems={selected}
          onSelectionChange={(e) => setSelected(e.detail.selectedItems)}
          ariaLabels={{
            selectionGroupLabel: 'Saved reply selection',
            itemSelectionLabel: (_s, r) => `Select /${r.shortcut}`,
            allItemsSelectionLabel: () => 'Select all',
            tableLabel: 'Saved replies',
          }}
          header={
            <Header
              variant="h2"
              counter={shown ? `(${shown.length}${more.hasMore ? '+' : ''})` : undefined}
              actions={
                <SpaceBetween direction="horizontal" size="xs">
                  <Button disabled={!current} onClick={() => current && setEditing(current)}>
                    Edit
                  </Button>
                  <Button disabled={!current} onClick={() => setDeleting(true)}>
                    Delete
                  </Button>
                  <Button variant="primary" onClick={() => setEditing('new')}>
                    New saved reply
                  </Button>
                </SpaceBetween>
              }
            >
              Replies
            </Header>
          }
          columnDefinitions={[
            { id: 'shortcut', header: 'Shortcut', cell: (r) => <code>/{r.shortcut}</code>, isRowHeader: true },
            { id: 'title', header: 'Title', cell: (r) => r.title },
            { id: 'text', header: 'Text', cell: (r) => <span className="saved-reply-text">{r.text}</span> },
            { id: 'updated', header: 'Changed', cell: (r) => formatDateTime(r.updated_at) },
          ]}
          footer={<LoadOlder more={more}>Load more saved replies</LoadOlder>}
          empty={
            <EmptyUnlessFailed resource={replies}>
              <Empty
                title="No saved replies"
                action={<Button onClick={() => setEditing('new')}>New saved reply</Button>}
              >
                Save the answers you type again and again: opening hours, directions, a thank-you.
              </Empty>
            </EmptyUnlessFailed>
          }
        />
      </SpaceBetween>
      {editing && (
        <SavedReplyModal
          reply={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={(r, created) => {
            setEditing(null);
            done(created ? `/${r.shortcut} is saved.` : `/${r.shortcut} is changed.`);
          }}
        />
      )}
      <ConfirmAction
        visible={deleting}
        close={() => setDeleting(false)}
        header="Delete saved reply"
        confirmText="Delete"
        action={remove}
        run={() => client.savedReplies.delete(current!.id).then(() => true)}
        onDone={() => done(`/${current!.shortcut} is deleted.`)}
      >
        <Box variant="p">
          {`/${current?.shortcut ?? ''} (${current?.title ?? ''}) is deleted for the whole team. Messages already sent with it stay as they are.`}
        </Box>
      </ConfirmAction>
    </ContentLayout>
  );
}

const PLACEHOLDER_HELP =
  'Placeholders are filled in for each conversation: {{customer.name}}, {{customer.first_name}}, {{customer.phone}}, {{agent.name}}, {{agent.first_name}}. ' +
  'Give a fallback for when it is not known: {{customer.first_name | there}}.';

function SavedReplyModal({
  reply,
  onClose,
  onSaved,
}: {
  reply: SavedReply | undefined;
  onClose: () => void;
  onSaved: (r: SavedReply, created: boolean) => void;
}) {
  const { client } = useApp();
  const [shortcut, setShortcut] = useState(reply?.shortcut ?? '');
  const [title, setTitle] = useState(reply?.title ?? '');
  const [text, setText] = useState(reply?.text ?? '');
  const action = useAction();
  const shortcutError = fieldError(action.error, ['shortcut'], ['shortcut_taken']);
  const titleError = fieldError(action.error, ['title']);
  const textError = fieldError(action.error, ['text']);
  const submit = async () => {
    const values = { shortcut: shortcut.trim().replace(/^\//, ''), title, text };
    const saved = await action.run(() =>
      reply
        ? client.savedReplies.update(reply.id, values, { ifMatch: reply.version })
        : client.savedReplies.create(values),
    );
    if (saved) onSaved(saved, !reply);
  };
  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      size="large"
      header={reply ? `Edit /${reply.shortcut}` : 'New saved reply'}
      onDismiss={onClose}
      footer={<DialogFooter onCancel={onClose} busy={action.busy} onConfirm={() => void submit()} confirmText="Save" />}
    >
      <SpaceBetween size="m">
        <FormField
          label="Shortcut"
          description="Letters, digits, - and _; typed after a / in the reply box."
          errorText={shortcutError}
        >
          <Input
            value={shortcut}
            onChange={(e) => setShortcut(e.detail.value)}
            invalid={!!shortcutError}
            placeholder="hours"
            autoFocus
          />
        </FormField>
        <FormField label="Title" description="What it is for, as your team sees it." errorText={titleError}>
          <Input
            value={title}
            onChange={(e) => setTitle(e.detail.value)}
            invalid={!!titleError}
            placeholder="Opening hours"
          />
        </FormField>
        <FormField label="Text" description={PLACEHOLDER_HELP} errorText={textError} stretch>
          <Textarea
            value={text}
            onChange={(e) => setText(e.detail.value)}
            invalid={!!textError}
            rows={5}
            placeholder="Hi {{customer.first_name | there}}, we are open Monday to Friday, 9:00 to 18:00."
          />
        </FormField>
        <ErrorAlert error={action.error} atFields={REPLY_FIELDS} />
      </SpaceBetween>
    </Modal>
  );
}
