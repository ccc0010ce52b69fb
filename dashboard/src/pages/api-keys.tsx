import { useEffect, useRef, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input, { type InputProps } from '@cloudscape-design/components/input';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import type { ApiKey, NewApiKey, User } from '@messaging-platform/sdk';
import { useAction, useApp, useResource } from '../context';
import { ConfirmModal, Empty, DialogFooter, EmptyUnlessFailed, ShownOnceModal } from '../components/common';
import { ErrorAlert, fieldError } from '../components/errors';
import { formatAgo, formatDateTime } from '../format';

const ROLES = [
  { value: 'admin', label: 'Admin', description: 'Everything, including keys, users and webhooks' },
  { value: 'agent', label: 'Agent', description: 'Conversations, bookings and AI; read-only webhooks' },
];

/** Settings › Developer › API keys (admin). */
export function ApiKeysPage() {
  const { me, flash, client } = useApp();
  const keys = useResource(async (client) => {
    const [list, users] = await Promise.all([
      client.apiKeys.list({ limit: 100 }).toArray({ max: 500 }),
      client.users
        .list({ limit: 100 })
        .toArray({ max: 500 })
        .catch(() => [] as User[]),
    ]);
    return { list, users: new Map(users.map((u) => [u.id, u])) };
  }, []);
  const [selected, setSelected] = useState<ApiKey[]>([]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<NewApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useAction();

  const creator = (id: string) => {
    if (id.startsWith('key_')) {
      const key = keys.data?.list.find((k) => k.id === id);
      return key ? `API key ${key.name}` : `API key ${id}`;
    }
    const user = keys.data?.users.get(id);
    return user ? (user.name ?? user.email) : id;
  };

  return (
    <ContentLayout
      header={
        <Header variant="h1" description="Keys let your servers call the API. Each key acts with its role.">
          API keys
        </Header>
      }
    >
      <SpaceBetween size="l">
        <Container header={<Header variant="h2">Organization</Header>}>
          <KeyValuePairs
            columns={2}
            items={[
              { label: 'Name', value: me.tenant.name },
              {
                label: 'Tenant ID (X-Tenant-ID)',
                value: (
                  <CopyToClipboard
                    variant="inline"
                    textToCopy={me.tenant.id}
                    copyButtonAriaLabel="Copy tenant ID"
                    copySuccessText="Tenant ID copied"
                    copyErrorText="Tenant ID failed to copy"
                  />
                ),
              },
              { label: 'Plan', value: `${me.tenant.plan} (${me.tenant.rate_limit_per_hour} requests per hour)` },
              { label: 'Status', value: me.tenant.status },
            ]}
          />
        </Container>
        <ErrorAlert error={keys.error} action={<Button onClick={() => void keys.reload()}>Retry</Button>} />
        <Table
          wrapLines
          variant="container"
          items={keys.data?.list ?? []}
          loading={keys.loading && !keys.data}
          loadingText="Loading API keys"
          selectionType="single"
          selectedItems={selected}
          onSelectionChange={(e) => setSelected(e.detail.selectedItems)}
          trackBy="id"
          ariaLabels={{
            selectionGroupLabel: 'API key selection',
            itemSelectionLabel: (_s, item) => `Select key ${item.name}`,
            allItemsSelectionLabel: () => 'Select all',
            tableLabel: 'API keys',
          }}
          header={
            <Header
              variant="h2"
              counter={keys.data ? `(${keys.data.list.length})` : undefined}
              actions={
                <SpaceBetween direction="horizontal" size="xs">
                  <Button iconName="refresh" ariaLabel="Refresh API keys" onClick={() => void keys.reload()} />
                  <Button disabled={selected.length === 0} onClick={() => setRevoking(selected[0] ?? null)}>
                    Revoke
                  </Button>
                  <Button variant="primary" onClick={() => setCreating(true)}>
                    Create API key
                  </Button>
                </SpaceBetween>
              }
            >
              Keys
            </Header>
          }
          columnDefinitions={[
            { id: 'name', header: 'Name', cell: (k) => k.name, isRowHeader: true },
            { id: 'prefix', header: 'Prefix', cell: (k) => <code>{k.prefix}…</code> },
            { id: 'role', header: 'Role', cell: (k) => k.role },
            { id: 'created_by', header: 'Created by', cell: (k) => creator(k.created_by) },
            { id: 'created_at', header: 'Created', cell: (k) => formatDateTime(k.created_at) },
            { id: 'last_used_at', header: 'Last used', cell: (k) => formatAgo(k.last_used_at) },
          ]}
          empty={
            <EmptyUnlessFailed resource={keys}>
              <Empty title="No API keys" action={<Button onClick={() => setCreating(true)}>Create API key</Button>}>
                Create a key for each server or integration that calls the API.
              </Empty>
            </EmptyUnlessFailed>
          }
        />
      </SpaceBetween>
      {creating && (
        <CreateKeyModal
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
            void keys.reload();
          }}
        />
      )}
      {created && <ShowKeyModal created={created} onClose={() => setCreated(null)} />}
      <ConfirmModal
        visible={!!revoking}
        header="Revoke API key"
        confirmText="Revoke"
        busy={revoke.busy}
        error={revoke.error}
        onCancel={() => {
          setRevoking(null);
          revoke.clearError();
        }}
        onConfirm={() =>
          void revoke
            .run(async () => {
              await client.apiKeys.revoke(revoking!.id);
              return true;
            })
            .then((ok) => {
              if (!ok) return;
              flash({ type: 'success', content: `The key ${revoking!.name} (${revoking!.prefix}…) is revoked.` });
              setRevoking(null);
              setSelected([]);
              void keys.reload();
            })
        }
      >
        <Box variant="p">
          Revoke <b>{revoking?.name}</b> (<code>{revoking?.prefix}…</code>)? Every request with it fails at once. This
          cannot be undone.
        </Box>
      </ConfirmModal>
    </ContentLayout>
  );
}

function CreateKeyModal({ onClose, onCreated }: { onClose: () => void; onCreated: (key: NewApiKey) => void }) {
  const { client } = useApp();
  const [name, setName] = useState('');
  // The least power by default: an integration that needs admin is the exception.
  const [role, setRole] = useState(ROLES.find((r) => r.value === 'agent') ?? ROLES[0]!);
  const [tried, setTried] = useState(false);
  const action = useAction();
  const nameInput = useRef<InputProps.Ref>(null);
  // The dialog focuses its close button as it opens; the name is what the user came to type.
  useEffect(() => {
    const timer = window.setTimeout(() => nameInput.current?.focus(), 50);
    return () => window.clearTimeout(timer);
  }, []);
  const nameError =
    (tried && name.trim() === '' ? 'Name the key after what uses it, e.g. "Backend integration".' : '') ||
    fieldError(action.error, ['name']);
  const submit = async () => {
    setTried(true);
    if (name.trim() === '') return;
    const key = await action.run(() =>
      client.apiKeys.create({ name: name.trim(), role: role.value as 'admin' | 'agent' }),
    );
    if (key) onCreated(key);
  };
  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      header="Create API key"
      onDismiss={onClose}
      footer={
        <DialogFooter onCancel={onClose} busy={action.busy} onConfirm={() => void submit()} confirmText="Create" />
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <SpaceBetween size="m">
          <FormField label="Name" errorText={nameError}>
            <Input ref={nameInput} value={name} onChange={(e) => setName(e.detail.value)} invalid={!!nameError} />
          </FormField>
          <FormField label="Role">
            <Select
              selectedOption={role}
              onChange={(e) => setRole(ROLES.find((r) => r.value === e.detail.selectedOption.value) ?? ROLES[0]!)}
              options={ROLES}
            />
          </FormField>
          <ErrorAlert error={action.error} atFields={['name']} />
        </SpaceBetween>
      </form>
    </Modal>
  );
}

function ShowKeyModal({ created, onClose }: { created: NewApiKey; onClose: () => void }) {
  return (
    <ShownOnceModal
      header="API key created"
      warning={{
        header: 'Copy the key now',
        text: 'This is the only time the key is shown. Store it in your secrets manager; if you lose it, revoke it and create a new one.',
      }}
      onClose={onClose}
    >
      <KeyValuePairs
        columns={1}
        items={[
          { label: 'Name', value: created.name },
          {
            label: 'API key',
            value: (
              <span data-testid="new-api-key" className="secret">
                <CopyToClipboard
                  variant="inline"
                  textToCopy={created.key}
                  copyButtonAriaLabel="Copy API key"
                  copySuccessText="API key copied"
                  copyErrorText="API key failed to copy"
                />
              </span>
            ),
          },
          { label: 'Role', value: created.role },
        ]}
      />
    </ShownOnceModal>
  );
}
