import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { ApiError, type User } from '@messaging-platform/sdk';
import { useAction, useApp, useTeam } from '../context';
import { ConfirmModal, Empty, DialogFooter, EmptyUnlessFailed } from '../components/common';
import { ErrorAlert, fieldError } from '../components/errors';

/** The add-user form's fields, where the API's field errors show. */
const USER_FIELDS = ['email', 'password', 'name'];
import { formatDateTime } from '../format';

const ROLES = [
  { value: 'agent', label: 'Agent', description: 'Inbox, bookings and AI replies' },
  { value: 'admin', label: 'Admin', description: 'Also API keys, webhooks and the team' },
];
const LAST_ADMIN =
  'An organization always keeps at least one active admin, so the last one cannot be disabled or made an agent. Make another user an admin first.';

/** Settings › Team (admin): users, roles and status. */
export function TeamPage() {
  const { client, me, flash } = useApp();
  const { users } = useTeam();
  const [selected, setSelected] = useState<User[]>([]);
  const [adding, setAdding] = useState(false);
  const [changingRole, setChangingRole] = useState(false);
  const [toggling, setToggling] = useState(false);
  const action = useAction();
  const current = selected[0];
  const activeAdmins = (users.data ?? []).filter((u) => u.role === 'admin' && u.status === 'active');
  const isLastAdmin = !!current && current.role === 'admin' && current.status === 'active' && activeAdmins.length <= 1;
  const lastAdminError = action.error instanceof ApiError && action.error.code === 'last_admin';

  const done = (message: string) => {
    flash({ type: 'success', content: message });
    setSelected([]);
    void users.reload();
  };

  return (
    <ContentLayout
      header={
        <Header variant="h1" description="Who can sign in to this organization, and with which role.">
          Team
        </Header>
      }
    >
      <SpaceBetween size="l">
        <ErrorAlert error={users.error} action={<Button onClick={() => void users.reload()}>Retry</Button>} />
        {isLastAdmin && (
          <Alert type="info" header="The last admin">
            {LAST_ADMIN}
          </Alert>
        )}
        <Table
          wrapLines
          variant="container"
          items={users.data ?? []}
          loading={users.loading && !users.data}
          loadingText="Loading users"
          trackBy="id"
          selectionType="single"
          selectedItems={selected}
          onSelectionChange={(e) => setSelected(e.detail.selectedItems)}
          ariaLabels={{
            selectionGroupLabel: 'User selection',
            itemSelectionLabel: (_s, u) => `Select ${u.email}`,
            allItemsSelectionLabel: () => 'Select all',
            tableLabel: 'Users',
          }}
          header={
            <Header
              variant="h2"
              counter={users.data ? `(${users.data.length})` : undefined}
              actions={
                <SpaceBetween direction="horizontal" size="xs">
                  <Button
                    disabled={!current || isLastAdmin}
                    disabledReason={isLastAdmin ? 'The last active admin keeps the admin role.' : undefined}
                    onClick={() => setChangingRole(true)}
                  >
                    Change role
                  </Button>
                  <Button
                    disabled={!current || isLastAdmin || current.id === me.user_id}
                    disabledReason={
                      isLastAdmin
                        ? 'The last active admin cannot be disabled.'
                        : current?.id === me.user_id
                          ? 'You cannot disable yourself.'
                          : undefined
                    }
                    onClick={() => setToggling(true)}
                  >
                    {current?.status === 'disabled' ? 'Enable' : 'Disable'}
                  </Button>
                  <Button variant="primary" onClick={() => setAdding(true)}>
                    Add user
                  </Button>
                </SpaceBetween>
              }
            >
              Users
            </Header>
          }
          columnDefinitions={[
            { id: 'name', header: 'Name', cell: (u) => u.name ?? '—', isRowHeader: true },
            { id: 'email', header: 'Email', cell: (u) => u.email },
            { id: 'role', header: 'Role', cell: (u) => u.role },
            {
              id: 'status',
              header: 'Status',
              cell: (u) =>
                u.status === 'active' ? (
                  <StatusIndicator type="success">Active</StatusIndicator>
                ) : (
                  <StatusIndicator type="stopped">Disabled</StatusIndicator>
                ),
            },
            { id: 'created', header: 'Added', cell: (u) => formatDateTime(u.created_at) },
          ]}
          empty={
            <EmptyUnlessFailed resource={users}>
              <Empty title="No users" />
            </EmptyUnlessFailed>
          }
        />
      </SpaceBetween>
      {adding && (
        <AddUserModal
          onClose={() => setAdding(false)}
          onAdded={(u) => {
            setAdding(false);
            done(`${u.email} can now sign in as ${u.role}.`);
          }}
        />
      )}
      {changingRole && current && (
        <RoleModal
          user={current}
          onClose={() => setChangingRole(false)}
          onChanged={(u) => {
            setChangingRole(false);
            done(`${u.email} is now ${u.role === 'admin' ? 'an admin' : 'an agent'}.`);
          }}
        />
      )}
      <ConfirmModal
        visible={toggling}
        header={current?.status === 'disabled' ? 'Enable user' : 'Disable user'}
        confirmText={current?.status === 'disabled' ? 'Enable' : 'Disable'}
        busy={action.busy}
        error={lastAdminError ? null : action.error}
        onCancel={() => {
          setToggling(false);
          action.clearError();
        }}
        onConfirm={() =>
          void action
            .run(() =>
              client.users.update(
                current!.id,
                { status: current!.status === 'disabled' ? 'active' : 'disabled' },
                { ifMatch: current!.version },
              ),
            )
            .then((u) => {
              if (!u) return;
              setToggling(false);
              done(`${u.email} is ${u.status === 'active' ? 'enabled' : 'disabled'}.`);
            })
        }
      >
        <SpaceBetween size="s">
          <Box variant="p">
            {current?.status === 'disabled'
              ? `${current?.email} can sign in again.`
              : `${current?.email} cannot sign in any more, and their sessions end. Their unresolved conversations go back to the team (nobody assigned).`}
          </Box>
          {lastAdminError && (
            <Alert type="error" header="The last admin">
              {LAST_ADMIN}
            </Alert>
          )}
        </SpaceBetween>
      </ConfirmModal>
    </ContentLayout>
  );
}

function AddUserModal({ onClose, onAdded }: { onClose: () => void; onAdded: (u: User) => void }) {
  const { client } = useApp();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState(ROLES[0]!);
  const [tried, setTried] = useState(false);
  const action = useAction();
  const emailError =
    (tried && !/^\S+@\S+\.\S+$/.test(email) ? 'Enter an email address.' : '') ||
    fieldError(action.error, ['email'], ['email_taken']);
  const passwordError =
    (tried && password.length < 10 ? 'At least 10 characters; a passphrase is best.' : '') ||
    fieldError(action.error, ['password']);
  const nameError = fieldError(action.error, ['name']);
  const submit = async () => {
    setTried(true);
    if (!/^\S+@\S+\.\S+$/.test(email) || password.length < 10) return;
    const user = await action.run(() =>
      client.users.create({
        email: email.trim(),
        password,
        name: name.trim() || undefined,
        role: role.value as 'admin' | 'agent',
      }),
    );
    if (user) onAdded(user);
  };
  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      header="Add user"
      onDismiss={onClose}
      footer={
        <DialogFooter onCancel={onClose} busy={action.busy} onConfirm={() => void submit()} confirmText="Add user" />
      }
    >
      <SpaceBetween size="m">
        <FormField label="Email" errorText={emailError}>
          <Input type="email" value={email} onChange={(e) => setEmail(e.detail.value)} invalid={!!emailError} />
        </FormField>
        <FormField label="Name" description="Optional" errorText={nameError}>
          <Input value={name} onChange={(e) => setName(e.detail.value)} invalid={!!nameError} />
        </FormField>
        <FormField label="Initial password" description="Share it with them securely." errorText={passwordError}>
          <Input
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.detail.value)}
            invalid={!!passwordError}
          />
        </FormField>
        <FormField label="Role">
          <Select
            selectedOption={role}
            onChange={(e) => setRole(ROLES.find((r) => r.value === e.detail.selectedOption.value) ?? ROLES[0]!)}
            options={ROLES}
          />
        </FormField>
        <ErrorAlert error={action.error} atFields={USER_FIELDS} />
      </SpaceBetween>
    </Modal>
  );
}

function RoleModal({ user, onClose, onChanged }: { user: User; onClose: () => void; onChanged: (u: User) => void }) {
  const { client } = useApp();
  const [role, setRole] = useState(ROLES.find((r) => r.value === user.role) ?? ROLES[0]!);
  const action = useAction();
  const lastAdmin = action.error instanceof ApiError && action.error.code === 'last_admin';
  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      header={`Change the role of ${user.email}`}
      onDismiss={onClose}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onClose}>
              Cancel
            </Button>
            <Button
              variant="primary"
              loading={action.busy}
              onClick={() =>
                void action
                  .run(() =>
                    client.users.update(user.id, { role: role.value as 'admin' | 'agent' }, { ifMatch: user.version }),
                  )
                  .then((u) => u && onChanged(u))
              }
            >
              Save
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <FormField label="Role">
          <Select
            selectedOption={role}
            onChange={(e) => setRole(ROLES.find((r) => r.value === e.detail.selectedOption.value) ?? ROLES[0]!)}
            options={ROLES}
          />
        </FormField>
        {lastAdmin ? (
          <Alert type="error" header="The last admin">
            {LAST_ADMIN}
          </Alert>
        ) : (
          <ErrorAlert error={action.error} />
        )}
      </SpaceBetween>
    </Modal>
  );
}
