import type { ConditionalRequestOptions, RequestOptions } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource, path } from '../core/resource.js';
import type {
  CreateSavedReplyParams,
  ListSavedRepliesParams,
  RenderedSavedReply,
  RenderSavedReplyParams,
  SavedReply,
  UpdateSavedReplyParams,
} from '../types.js';

/** The team's saved replies (canned responses), each under a shortcut unique in the tenant. */
export class SavedReplies extends ApiResource {
  /** A to Z by shortcut; `shortcut` gives those whose shortcut starts with it. */
  list(params?: ListSavedRepliesParams, options?: RequestOptions): PagedList<SavedReply> {
    return this.pagedList('/saved-replies', params, options);
  }

  /**
   * Saves a reply. Its text may use placeholders such as `{{customer.first_name | there}}` (see `render`);
   * a shortcut another reply has throws ConflictError (`shortcut_taken`).
   */
  create(params: CreateSavedReplyParams, options?: RequestOptions): Promise<SavedReply> {
    return this.call('POST', '/saved-replies', { body: params, options });
  }

  get(id: string, options?: RequestOptions): Promise<SavedReply> {
    return this.call('GET', path`/saved-replies/${id}`, { options });
  }

  /** Changes its shortcut, title or text; `ifMatch: reply.version` refuses a change made meanwhile. */
  update(id: string, changes: UpdateSavedReplyParams, options?: ConditionalRequestOptions): Promise<SavedReply> {
    return this.call('PATCH', path`/saved-replies/${id}`, { body: changes, options });
  }

  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.call('DELETE', path`/saved-replies/${id}`, { options });
  }

  /**
   * The reply's text filled in for a conversation (its customer; the signed-in user as the agent), ready
   * to send; `missing` names the placeholders that had no value and no fallback. Nothing is sent.
   */
  render(id: string, params: RenderSavedReplyParams, options?: RequestOptions): Promise<RenderedSavedReply> {
    return this.call('POST', path`/saved-replies/${id}/render`, { body: params, options });
  }
}
