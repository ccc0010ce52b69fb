import type { ConditionalRequestOptions, RequestOptions, Transport } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource, path } from '../core/resource.js';
import type {
  Conversation,
  ConversationWithMessages,
  CreateConversationParams,
  ListConversationsParams,
  CreateNoteParams,
  UpdateNoteParams,
  ListMessagesParams,
  ListNotesParams,
  Message,
  NewConversation,
  Note,
  SendMessageParams,
  UpdateConversationParams,
} from '../types.js';

/** A conversation's messages. */
export class Messages extends ApiResource {
  /** All messages of a conversation, newest first. */
  list(conversationId: string, params?: ListMessagesParams, options?: RequestOptions): PagedList<Message> {
    return this.pagedList(path`/conversations/${conversationId}/messages`, params, options);
  }

  /** Sends a reply. It is answered `queued`; its status then moves to sent, delivered and read (or failed). */
  send(conversationId: string, params: SendMessageParams, options?: RequestOptions): Promise<Message> {
    return this.call('POST', path`/conversations/${conversationId}/messages`, { body: params, options });
  }
}

/** The team's notes on a conversation: never sent to the customer, no event. */
export class Notes extends ApiResource {
  /** A conversation's notes, newest first. */
  list(conversationId: string, params?: ListNotesParams, options?: RequestOptions): PagedList<Note> {
    return this.pagedList(path`/conversations/${conversationId}/notes`, params, options);
  }

  /** Adds a note for the team. */
  create(conversationId: string, params: CreateNoteParams, options?: RequestOptions): Promise<Note> {
    return this.call('POST', path`/conversations/${conversationId}/notes`, { body: params, options });
  }

  /**
   * Replaces a note's text (sets `edited_at`, moves `version` on): only its author may. `ifMatch:
   * note.version` refuses an edit of a note changed meanwhile (PreconditionFailedError).
   */
  update(
    conversationId: string,
    noteId: string,
    changes: UpdateNoteParams,
    options?: ConditionalRequestOptions,
  ): Promise<Note> {
    return this.call('PATCH', path`/conversations/${conversationId}/notes/${noteId}`, { body: changes, options });
  }

  /** Deletes a note: its author may, and an admin may delete anyone's. `ifMatch` as for update. */
  async delete(conversationId: string, noteId: string, options?: ConditionalRequestOptions): Promise<void> {
    await this.call('DELETE', path`/conversations/${conversationId}/notes/${noteId}`, { options });
  }
}

export class Conversations extends ApiResource {
  readonly messages: Messages;
  readonly notes: Notes;

  constructor(transport: Transport) {
    super(transport);
    this.messages = new Messages(transport);
    this.notes = new Notes(transport);
  }

  /** Conversations, newest activity first. Filter by `status`, `tag`, `customer_id` or `assignee_id` (a user's unresolved ones), or `status` with one other; `channel` combines with any of them. */
  list(params?: ListConversationsParams, options?: RequestOptions): PagedList<Conversation> {
    return this.pagedList('/conversations', params, options);
  }

  /** A conversation with its 20 newest messages. */
  get(id: string, options?: RequestOptions): Promise<ConversationWithMessages> {
    return this.call('GET', path`/conversations/${id}`, { options });
  }

  /** Opens a conversation with a customer (by `id`, or by `phone`), optionally with a first message. */
  create(params: CreateConversationParams, options?: RequestOptions): Promise<NewConversation> {
    return this.call('POST', '/conversations', { body: params, options });
  }

  /** Changes status, tags, assignee, priority or category. Pass `ifMatch: conversation.version` to guard against lost updates. */
  update(id: string, changes: UpdateConversationParams, options?: ConditionalRequestOptions): Promise<Conversation> {
    return this.call('PATCH', path`/conversations/${id}`, { body: changes, options });
  }
}
