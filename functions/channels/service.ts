// Public: the tenant's connected channels, for the features that route by number.
import { DomainError } from '../platform/domain-error';
import { whatsAppPlatformApp } from '../platform/secrets';
import {
  connectWhatsApp,
  listChannels,
  routeWhatsAppNumber,
  type WhatsAppChannel,
  type WhatsAppSecrets,
} from './store';
import {
  GraphError,
  exchangeSignupCode,
  type GraphCredentials,
  inspectToken,
  subscribeAppToAccount,
  tokenProblem,
  verifyPhoneNumberAccess,
} from './whatsapp';

/** Channels of a tenant: connecting a WhatsApp Cloud API number. */

export interface WhatsAppConnection {
  phone_number_id: string;
  display_phone_number?: string;
  access_token: string;
  /** The WhatsApp Business Account: the platform's app is subscribed to its webhooks. */
  waba_id?: string;
  /** Only for a number served by the tenant's own Meta app rather than the platform's. */
  app_secret?: string;
  verify_token?: string;
}

const invalid = (code: string, message: string) => DomainError.invalid(code, message);

/**
 * Connects a number: with the platform's Meta app, the token is checked with Meta (valid, long-lived,
 * with the WhatsApp permissions) and the app is subscribed to the account's webhooks; in every case
 * Graph must confirm the token controls the number. Secrets are sealed and never returned.
 */
export async function connectWhatsAppNumber(
  tenantId: string,
  input: WhatsAppConnection,
  now: Date,
): Promise<WhatsAppChannel> {
  const app = await whatsAppPlatformApp();
  if (!app && !input.app_secret) {
    throw invalid(
      'whatsapp_app_not_configured',
      'This deployment has no platform Meta app: give your own app\u2019s app_secret and a verify_token.',
    );
  }
  if (app && !input.app_secret) {
    let problem: string | undefined;
    try {
      problem = tokenProblem(await inspectToken(input.access_token, app), now);
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      problem = `Meta could not check this access token: ${error.message}`;
    }
    if (problem) throw invalid('whatsapp_token_unsuitable', problem);
  }
  // Calls are signed with appsecret_proof for the platform's app; a tenant's own app need not require it.
  const credentials = { accessToken: input.access_token, appSecret: input.app_secret ? undefined : app?.secret };
  const number = await verifyPhoneNumberAccess(input.phone_number_id, credentials);
  if (!number) {
    throw invalid(
      'whatsapp_credentials_invalid',
      'The Graph API did not accept this access token for this phone_number_id.',
    );
  }
  if (input.waba_id && app && !input.app_secret) {
    try {
      await subscribeAppToAccount(input.waba_id, credentials);
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      throw invalid(
        'whatsapp_subscription_failed',
        `Meta refused to send this account\u2019s webhooks: ${error.message}`,
      );
    }
  }
  const channel: WhatsAppChannel = {
    channel: 'whatsapp',
    tenant_id: tenantId,
    phone_number_id: input.phone_number_id,
    display_phone_number: input.display_phone_number ?? number.display_phone_number ?? null,
    waba_id: input.waba_id ?? null,
    status: 'active',
    created_at: now.toISOString(),
  };
  await connectWhatsApp(
    channel,
    { access_token: input.access_token, ...(input.app_secret ? { app_secret: input.app_secret } : {}) },
    input.verify_token,
  );
  return channel;
}

/**
 * Embedded Signup: the tenant's browser ran Meta's signup with the platform's app and got an OAuth code,
 * the account (waba_id) and the number. The code becomes a business integration token, then the number
 * is connected as above.
 */
export async function connectByEmbeddedSignup(
  tenantId: string,
  input: { code: string; waba_id: string; phone_number_id: string },
  now: Date,
): Promise<WhatsAppChannel> {
  const app = await whatsAppPlatformApp();
  if (!app) {
    throw invalid(
      'whatsapp_app_not_configured',
      'Embedded Signup needs the platform\u2019s Meta app (WHATSAPP_APP_ID).',
    );
  }
  let token: string;
  try {
    token = await exchangeSignupCode(input.code, app);
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    throw invalid('whatsapp_signup_code_invalid', `Meta did not accept this signup code: ${error.message}`);
  }
  return connectWhatsAppNumber(
    tenantId,
    { phone_number_id: input.phone_number_id, waba_id: input.waba_id, access_token: token },
    now,
  );
}

/** The phone_number_ids of the tenant's connected WhatsApp numbers (never their secrets). */
export async function whatsAppNumbersOf(tenantId: string): Promise<string[]> {
  return (await listChannels(tenantId)).map((channel) => channel.phone_number_id);
}

/** What a call on a connected number's account needs: its WABA and the credentials to call Graph with. */
export interface WhatsAppAccess {
  phoneNumberId: string;
  wabaId: string | null;
  credentials: GraphCredentials;
}

/**
 * The tenant's WhatsApp number (the one named, or its only one) and how to call Graph for it. 422
 * `channel_not_connected` when there is none; the caller checks `wabaId` when it needs the account.
 */
export async function whatsAppAccess(tenantId: string, phoneNumberId?: string | null): Promise<WhatsAppAccess> {
  const numbers = await listChannels(tenantId);
  const channel = phoneNumberId
    ? numbers.find((c) => c.phone_number_id === phoneNumberId)
    : numbers.length === 1
      ? numbers[0]
      : undefined;
  const route = channel ? await routeWhatsAppNumber(channel.phone_number_id) : undefined;
  if (!channel || !route || route.tenantId !== tenantId)
    throw DomainError.invalidField(
      'channel_not_connected',
      'channel_account_id',
      'Connect the WhatsApp number first (POST /channels/whatsapp), and name it in channel_account_id if there are several.',
    );
  const app = await whatsAppPlatformApp();
  return {
    phoneNumberId: channel.phone_number_id,
    wabaId: channel.waba_id,
    credentials: graphCredentials(route.secrets, app?.secret),
  };
}

/** appsecret_proof for the platform's app; a tenant's own app need not require it. */
export const graphCredentials = (
  secrets: WhatsAppSecrets,
  platformAppSecret: string | undefined,
): GraphCredentials => ({
  accessToken: secrets.access_token,
  appSecret: secrets.app_secret ? undefined : platformAppSecret,
});
