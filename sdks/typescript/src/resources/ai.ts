import type { RequestOptions } from '../core/http.js';
import { ApiResource } from '../core/resource.js';
import type { Analysis, AnalyzeParams, Categorization, CategorizeParams, SuggestParams, Suggestions } from '../types.js';

export class Ai extends ApiResource {
  /** Sentiment, intent, entities, language and a handoff verdict, for `{ text }` or a stored message. */
  analyze(params: AnalyzeParams, options?: RequestOptions): Promise<Analysis> {
    return this.call('POST', '/ai/analyze', { body: params, options });
  }

  /** Reply suggestions grounded in the customer's name and next booking. */
  suggest(params: SuggestParams, options?: RequestOptions): Promise<Suggestions> {
    return this.call('POST', '/ai/suggest', { body: params, options });
  }

  /** A category and tags for a conversation; `apply: true` sets them. */
  categorize(params: CategorizeParams, options?: RequestOptions): Promise<Categorization> {
    return this.call('POST', '/ai/categorize', { body: params, options });
  }
}
