import type { RequestOptions } from '../core/http.js';
import { ApiResource } from '../core/resource.js';
import type { Channel, ConnectedWhatsApp, ConnectWhatsAppParams, InboundResult, SandboxInboundParams } from '../types.js';

export class Channels extends ApiResource {
  /** The sandbox and the connected WhatsApp numbers (not paginated). */
  async list(options?: RequestOptions): Promise<Channel[]> {
    const body = await this.call<{ data: Channel[] }>('GET', '/channels', { options });
    return body.data;
  }

  /**
   * Injects a customer message on the sandbox channel (the same path as a WhatsApp message): the
   * conversation and the message, or `{ duplicate: true }` for a `provider_message_id` already received.
   */
  sandboxInbound(params: SandboxInboundParams, options?: RequestOptions): Promise<InboundResult> {
    return this.call('POST', '/channels/sandbox/inbound', { body: params, options });
  }

  /** Connects a WhatsApp Cloud API number (admin only), after Meta confirms the token controls it. */
  connectWhatsApp(params: ConnectWhatsAppParams, options?: RequestOptions): Promise<ConnectedWhatsApp> {
    return this.call('POST', '/channels/whatsapp', { body: params, options });
  }
}
