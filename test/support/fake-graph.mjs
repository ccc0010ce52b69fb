// A local stand-in for the WhatsApp Cloud API (Graph API), following Meta's documented shapes and errors:
// error bodies with message, type, code, error_data and fbtrace_id; throttling as HTTP 400 with Meta's codes
// and usage headers and no Retry-After; tokens checked (190 when expired); unknown or retired versions
// refused; and signed status webhooks of its own, sent to the platform's callback (POST /__config).
//
// POST /{phone_number_id}/messages answers according to the phone_number_id's first digits:
//   50: 500 (code 1) twice, then success      53: 503 (code 2) three times, then success
//   42: 400 with 130429 (throughput) once     41: 400 with 131056 (pair rate limit) once
//   40: accepted with a wamid, then a `failed` status webhook with 131026 (undeliverable)
//   44: 400 with 100 (invalid parameter)      49: 401 with 190 (the token expired)
//   45: `read` then `delivered` webhooks sent before the send is answered (out of order, early)
//   46: answers after 7 s (past the client's timeout), then sends `delivered` for the message
//   59: accepted, but no answer ever comes (a sender that dies while waiting has handed the message over),
//       and no status either
//   anything else (and after its failures, 50, 53, 42, 41): success, then a `sent` status webhook
// A webhook the platform does not answer 200 is posted again, a few times (Meta retries for days).
// Tokens: `EAAG-token-<phone_number_id>` controls that number; `EAAG-short-…` is a short-lived user token.
// Message templates (POST/GET/DELETE /{waba_id}/message_templates): created PENDING, then reviewed after
// `templateReviewMs` (POST /__config): APPROVED, or REJECTED (INVALID_FORMAT) when the name contains
// "reject", each followed by a signed `message_template_status_update` webhook; a template named with
// "pause" is PAUSED after its approval. A send of a template Meta does not have fails with 132001, of a
// paused one with 132015; text sent to a recipient starting 491799 fails with 131047 (re-engagement).
// Media (Cloud API "Media" reference): POST /__media registers a customer's file ({data: base64, mime_type})
// and answers its id, as if a customer had sent it; GET /{media_id} answers its short-lived `url`, which
// serves the bytes to a bearer token only (401 otherwise); an unknown media id answers 400 with code 100
// (subcode 33, "does not exist"), as Meta does for media that expired or was deleted. POST
// /{phone_number_id}/media takes a multipart upload (messaging_product, type, file) and answers {id};
// a message may then send `{id}` instead of `{link}` (an unknown id is refused).
// GET /__requests returns what it recorded, so tests in other processes can inspect it.
import { createServer } from 'node:http';
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';

/** Versions Meta serves today (v21.0 until 2027-01-21; v20.0 and older are retired). */
const SERVED_VERSIONS = new Set(['v21.0', 'v22.0', 'v23.0', 'v24.0', 'v25.0', 'v26.0']);
const SCOPES = ['whatsapp_business_messaging', 'whatsapp_business_management'];

/** How often a webhook is posted before the fake gives up on it. */
const WEBHOOK_ATTEMPTS = 6;
const fbtrace = () => randomBytes(8).toString('base64url');
const metaError = (code, message, extra = {}) => ({
  error: {
    message,
    type: code === 190 || code === 100 ? 'OAuthException' : 'GraphMethodException',
    code,
    error_data: { messaging_product: 'whatsapp', details: message },
    fbtrace_id: fbtrace(),
    ...extra,
  },
});

export function startFakeGraph() {
  const requests = [];
  const attempts = new Map();
  const subscribedApps = [];
  const config = { webhookUrl: '', appSecret: '', appId: '', templateReviewMs: 300 };
  /** Templates by id: { id, waba_id, name, language, category, components, status, rejected_reason }. */
  const templates = new Map();
  let nextTemplateId = 1_000_000_000_000;
  /** Media by id: { bytes: Buffer, mime_type, sha256, filename? }. */
  const media = new Map();
  let nextMediaId = 7_000_000_000_000;
  const addMedia = (bytes, mimeType, filename) => {
    const id = String(nextMediaId++);
    media.set(id, { bytes, mime_type: mimeType, sha256: createHash('sha256').update(bytes).digest('hex'), filename });
    return id;
  };

  /** Any signed webhook as Meta sends it. */
  /**
   * Posts a webhook signed with the app secret. Meta retries one that is not answered 200 (an error, no
   * answer), less and less often, for up to 7 days: here a few times within seconds.
   */
  async function postSigned(body) {
    const signature = `sha256=${createHmac('sha256', config.appSecret).update(body).digest('hex')}`;
    for (let attempt = 0; attempt < WEBHOOK_ATTEMPTS; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      const res = await fetch(config.webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature },
        body,
      }).catch(() => undefined);
      await res?.arrayBuffer().catch(() => undefined);
      if (res?.status === 200) return;
    }
  }

  async function sendWebhook(wabaId, field, value) {
    if (!config.webhookUrl) return;
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: wabaId, time: Math.floor(Date.now() / 1000), changes: [{ field, value }] }],
    });
    await postSigned(body);
  }

  /** Meta's review: its verdict, then the `message_template_status_update` webhook that reports it. */
  function review(template) {
    setTimeout(() => {
      const rejected = template.name.includes('reject');
      template.status = rejected ? 'REJECTED' : 'APPROVED';
      template.rejected_reason = rejected ? 'INVALID_FORMAT' : 'NONE';
      void sendWebhook(template.waba_id, 'message_template_status_update', {
        event: template.status,
        message_template_id: Number(template.id),
        message_template_name: template.name,
        message_template_language: template.language,
        reason: template.rejected_reason,
      }).then(() => {
        if (rejected || !template.name.includes('pause')) return;
        template.status = 'PAUSED';
        setTimeout(
          () =>
            void sendWebhook(template.waba_id, 'message_template_status_update', {
              event: 'PAUSED',
              message_template_id: Number(template.id),
              message_template_name: template.name,
              message_template_language: template.language,
              reason: 'NONE',
              other_info: { title: 'FIRST_PAUSE', description: 'Paused for low quality.' },
            }),
          config.templateReviewMs,
        );
      });
    }, config.templateReviewMs);
  }

  /** Why Meta would refuse a template (undefined when it takes it for review). */
  function templateProblem(body) {
    if (!/^[a-z0-9_]{1,512}$/.test(body?.name ?? '')) return 'Invalid parameter: name';
    if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(body?.language ?? '')) return 'Invalid parameter: language';
    if (!['UTILITY', 'MARKETING', 'AUTHENTICATION'].includes(body?.category)) return 'Invalid parameter: category';
    const components = Array.isArray(body?.components) ? body.components : [];
    const bodyPart = components.find((c) => c.type === 'BODY');
    if (!bodyPart || typeof bodyPart.text !== 'string' || bodyPart.text.length > 1024) return 'Invalid parameter: BODY';
    const params = new Set([...bodyPart.text.matchAll(/\{\{(\d+)\}\}/g)].map((m) => m[1])).size;
    if (params && (bodyPart.example?.body_text?.[0]?.length ?? 0) !== params)
      return 'Invalid parameter: the number of example values does not match the number of parameters';
    for (const c of components) {
      if (c.type === 'FOOTER' && (typeof c.text !== 'string' || c.text.length > 60)) return 'Invalid parameter: FOOTER';
      if (c.type === 'HEADER' && c.format === 'TEXT' && (typeof c.text !== 'string' || c.text.length > 60))
        return 'Invalid parameter: HEADER';
      if (
        c.type === 'BUTTONS' &&
        (!Array.isArray(c.buttons) || c.buttons.length > 10 || c.buttons.some((b) => (b.text ?? '').length > 25))
      )
        return 'Invalid parameter: BUTTONS';
    }
    return undefined;
  }

  /** Why Meta would refuse a message body (Cloud API, POST /{phone_number_id}/messages), by its type. */
  function messageProblem(body) {
    const isMedia = (m) => m && (typeof m.link === 'string' || (typeof m.id === 'string' && media.has(m.id)));
    switch (body?.type) {
      case 'text':
        return typeof body.text?.body === 'string' && body.text.body.length <= 4096 ? undefined : 'bad text';
      case 'template':
        return typeof body.template?.name === 'string' && typeof body.template?.language?.code === 'string'
          ? undefined
          : 'bad template';
      case 'image':
      case 'video':
      case 'audio':
      case 'document':
        return isMedia(body[body.type]) ? undefined : `bad ${body.type}`;
      case 'interactive': {
        const i = body.interactive;
        if (typeof i?.body?.text !== 'string') return 'bad interactive body';
        if (i.type === 'button')
          return (i.action?.buttons?.length ?? 0) >= 1 && i.action.buttons.length <= 3 ? undefined : 'bad buttons';
        if (i.type === 'list') {
          const rows = (i.action?.sections ?? []).flatMap((s) => s.rows ?? []);
          return rows.length >= 1 && rows.length <= 10 && typeof i.action.button === 'string' ? undefined : 'bad list';
        }
        return 'bad interactive type';
      }
      default:
        return 'bad message type';
    }
  }

  /** A status webhook as Meta sends it, signed with the app secret. */
  async function sendStatus(phoneNumberId, wamid, status, to, reference, errors) {
    if (!config.webhookUrl) return;
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA-FAKE',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
                statuses: [
                  {
                    id: wamid,
                    status,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    // A message sent to a BSUID is reported by it: Meta names no phone it was not given.
                    ...(/^\d+$/.test(to) ? { recipient_id: to } : { recipient_user_id: to }),
                    ...(reference ? { biz_opaque_callback_data: reference } : {}),
                    ...(errors ? { errors } : {}),
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    await postSigned(body);
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const reply = (status, json, headers = {}) => {
        if (res.headersSent) return;
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'GET' && url.pathname === '/__requests') return reply(200, requests);
      if (req.method === 'GET' && url.pathname === '/__subscribed_apps') return reply(200, subscribedApps);
      if (req.method === 'POST' && url.pathname === '/__config') {
        Object.assign(config, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        return reply(200, { ok: true });
      }
      if (req.method === 'POST' && url.pathname === '/__media') {
        // A test's way to have a customer send a file: its id goes in the message webhook.
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const id = addMedia(Buffer.from(body.data, 'base64'), body.mime_type, body.filename);
        return reply(200, { id, sha256: media.get(id).sha256 });
      }
      if (req.method === 'GET' && url.pathname === '/whatsapp_business/attachments/') {
        // The short-lived download URL: only with a bearer token, as Meta's.
        const file = media.get(url.searchParams.get('mid') ?? '');
        if (!/^Bearer EAAG-token-/.test(req.headers.authorization ?? ''))
          return reply(401, metaError(190, 'Invalid OAuth access token.'));
        if (!file) return reply(404, metaError(100, 'Media not found'));
        requests.push({ kind: 'media_download', media_id: url.searchParams.get('mid') });
        res.writeHead(200, { 'Content-Type': file.mime_type, 'Content-Length': String(file.bytes.length) });
        return res.end(file.bytes);
      }
      if (req.method === 'POST' && url.pathname === '/__templates') {
        // A test's way to make a template "elsewhere" (WhatsApp Manager), for a sync to find.
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const template = { id: String(nextTemplateId++), status: 'APPROVED', ...body };
        templates.set(template.id, template);
        return reply(200, template);
      }
      const versioned = /^\/(v\d+\.\d+)\/(.*)$/.exec(url.pathname);
      if (!versioned) return reply(400, metaError(2500, 'Unknown path components'));
      if (!SERVED_VERSIONS.has(versioned[1]))
        return reply(
          400,
          metaError(
            2635,
            `(#2635) You are calling a deprecated or unknown version of the Graph API (${versioned[1]}).`,
          ),
        );
      const path = versioned[2];
      const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      // appsecret_proof, when sent, must be the HMAC of the token with the platform app's secret.
      const proof = url.searchParams.get('appsecret_proof');
      if (proof && token && config.appSecret) {
        const expected = createHmac('sha256', config.appSecret).update(token).digest('hex');
        if (proof !== expected)
          return reply(400, metaError(100, 'Invalid appsecret_proof provided in the API argument'));
      }

      if (req.method === 'GET' && path === 'debug_token') {
        if (url.searchParams.get('access_token') !== `${config.appId}|${config.appSecret}`)
          return reply(400, metaError(190, 'Invalid OAuth access token - Cannot parse access token'));
        const input = url.searchParams.get('input_token') ?? '';
        const valid = input.startsWith('EAAG-token-') || input.startsWith('EAAG-short-');
        return reply(200, {
          data: {
            app_id: config.appId,
            type: input.startsWith('EAAG-short-') ? 'USER' : 'SYSTEM_USER',
            is_valid: valid,
            expires_at: input.startsWith('EAAG-short-') ? Math.floor(Date.now() / 1000) + 3600 : 0,
            scopes: valid ? SCOPES : [],
          },
        });
      }
      if (req.method === 'GET' && path === 'oauth/access_token') {
        const code = url.searchParams.get('code') ?? '';
        const ok =
          url.searchParams.get('client_id') === config.appId &&
          url.searchParams.get('client_secret') === config.appSecret &&
          /^signup-\d+$/.test(code);
        if (!ok) return reply(400, metaError(100, 'Invalid verification code format.', { error_subcode: 36008 }));
        return reply(200, { access_token: `EAAG-token-${code.slice('signup-'.length)}`, token_type: 'bearer' });
      }
      const subscribe = /^(\d+)\/subscribed_apps$/.exec(path);
      if (req.method === 'POST' && subscribe) {
        if (!token?.startsWith('EAAG-token-')) return reply(401, metaError(190, 'Invalid OAuth access token.'));
        subscribedApps.push({ waba_id: subscribe[1], token });
        return reply(200, { success: true });
      }
      const templatePath = /^(\d+)\/message_templates$/.exec(path);
      if (templatePath) {
        if (!token?.startsWith('EAAG-token-')) return reply(401, metaError(190, 'Invalid OAuth access token.'));
        const wabaId = templatePath[1];
        const body = (() => {
          try {
            return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
          } catch {
            return undefined;
          }
        })();
        if (req.method === 'POST') {
          requests.push({ waba_id: wabaId, kind: 'template', body });
          const problem = templateProblem(body);
          if (problem) return reply(400, metaError(100, problem, { error_subcode: 2388043 }));
          const exists = [...templates.values()].some(
            (t) => t.waba_id === wabaId && t.name === body.name && t.language === body.language,
          );
          if (exists)
            return reply(
              400,
              metaError(100, 'Message template already exists in this language', { error_subcode: 2388024 }),
            );
          const template = { id: String(nextTemplateId++), waba_id: wabaId, ...body, status: 'PENDING' };
          templates.set(template.id, template);
          review(template);
          return reply(200, { id: template.id, status: 'PENDING', category: body.category });
        }
        if (req.method === 'GET') {
          const data = [...templates.values()].filter((t) => t.waba_id === wabaId).map(({ waba_id, ...t }) => t);
          return reply(200, { data, paging: { cursors: { before: 'MAA', after: 'MjQZD' } } });
        }
        if (req.method === 'DELETE') {
          const id = url.searchParams.get('hsm_id');
          const name = url.searchParams.get('name');
          const template = id ? templates.get(id) : undefined;
          if (!template || template.name !== name || template.waba_id !== wabaId)
            return reply(400, metaError(100, 'Message template not found', { error_subcode: 2593002 }));
          templates.delete(id);
          return reply(200, { success: true });
        }
      }
      // GET /{media_id}?phone_number_id=…: a file's metadata and its short-lived download URL.
      const mediaLookup = /^(\d+)$/.exec(path);
      if (
        req.method === 'GET' &&
        mediaLookup &&
        (media.has(mediaLookup[1]) || url.searchParams.has('phone_number_id'))
      ) {
        if (!token?.startsWith('EAAG-token-')) return reply(401, metaError(190, 'Invalid OAuth access token.'));
        requests.push({ kind: 'media_lookup', media_id: mediaLookup[1] });
        const file = media.get(mediaLookup[1]);
        if (!file)
          return reply(
            400,
            metaError(
              100,
              `Unsupported get request. Object with ID '${mediaLookup[1]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
              { error_subcode: 33 },
            ),
          );
        return reply(200, {
          messaging_product: 'whatsapp',
          url: `http://${req.headers.host}/whatsapp_business/attachments/?mid=${mediaLookup[1]}&ext=${Date.now()}`,
          mime_type: file.mime_type,
          sha256: file.sha256,
          file_size: file.bytes.length,
          id: mediaLookup[1],
        });
      }
      // POST /{phone_number_id}/media: a multipart upload, kept for sends by id.
      const upload = /^(\d+)\/media$/.exec(path);
      if (req.method === 'POST' && upload) {
        if (!token?.startsWith('EAAG-token-')) return reply(401, metaError(190, 'Invalid OAuth access token.'));
        const form = await new Request('http://fake/', {
          method: 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? '' },
          body: Buffer.concat(chunks),
        })
          .formData()
          .catch(() => undefined);
        const file = form?.get('file');
        if (form?.get('messaging_product') !== 'whatsapp' || !file || typeof file === 'string' || !form.get('type'))
          return reply(400, metaError(100, 'Invalid parameter: messaging_product, type and file are required'));
        const bytes = Buffer.from(await file.arrayBuffer());
        const id = addMedia(bytes, String(form.get('type')), file.name);
        requests.push({
          kind: 'media_upload',
          phone_number_id: upload[1],
          media_id: id,
          type: String(form.get('type')),
          filename: file.name,
          size: bytes.length,
          sha256: media.get(id).sha256,
        });
        return reply(200, { id });
      }
      // GET /{phone_number_id}: only a token of the business that owns the number may read it.
      const lookup = /^(\d+)$/.exec(path);
      if (req.method === 'GET' && lookup) {
        if (token !== `EAAG-token-${lookup[1]}`) return reply(401, metaError(190, 'Invalid OAuth access token.'));
        return reply(200, { id: lookup[1], display_phone_number: '+1 555 000 1111', verified_name: 'Fake Business' });
      }

      const match = /^(\d+)\/messages$/.exec(path);
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const problems = [];
      if (req.method !== 'POST' || !match) problems.push('not POST /vX.Y/{phone_number_id}/messages');
      if (!token) problems.push('missing bearer token');
      const to = body?.to ?? body?.recipient;
      if (
        body?.messaging_product !== 'whatsapp' ||
        messageProblem(body) ||
        !(/^\d{8,15}$/.test(body?.to ?? '') || /^[A-Z]{2}\.[A-Za-z0-9.]{1,140}$/.test(body?.recipient ?? ''))
      )
        problems.push(`bad message body${body ? `: ${messageProblem(body) ?? 'recipient'}` : ''}`);
      const phoneNumberId = match?.[1] ?? '';
      // `accepted` is set once the message is accepted: a test tells what reached the customer by it.
      const record = { phone_number_id: phoneNumberId, authorization: req.headers.authorization, body, problems };
      requests.push(record);
      if (problems.length) return reply(400, metaError(100, problems.join('; ')));
      if (phoneNumberId.startsWith('49') || !token.startsWith('EAAG-token-'))
        return reply(
          401,
          metaError(190, 'Error validating access token: Session has expired.', { error_subcode: 463 }),
        );
      if (body.type === 'template') {
        const template = [...templates.values()].find(
          (t) => t.name === body.template.name && t.language === body.template.language.code,
        );
        if (!template || template.status === 'REJECTED' || template.status === 'PENDING')
          return reply(404, metaError(132001, 'Template name does not exist in the translation'));
        if (template.status === 'PAUSED') return reply(400, metaError(132015, 'Template is Paused'));
      } else if (body.to?.startsWith('491799'))
        // Outside the customer-service window by Meta's clock: only templates go.
        return reply(400, metaError(131047, 'Re-engagement message'));
      const key = `${phoneNumberId}:${JSON.stringify(body.text ?? body.template ?? body[body.type] ?? '')}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      const usage = {
        'X-Business-Use-Case-Usage': JSON.stringify({ [phoneNumberId]: [{ type: 'whatsapp', call_count: 100 }] }),
      };
      if (phoneNumberId.startsWith('50') && n <= 2) return reply(500, metaError(1, 'An unknown error occurred'));
      // Longer than one attempt's in-process retries (three calls): the send is retried from the queue.
      if (phoneNumberId.startsWith('53') && n <= 3) return reply(503, metaError(2, 'Service temporarily unavailable'));
      if (phoneNumberId.startsWith('42') && n <= 1)
        return reply(400, metaError(130429, 'Rate limit hit: Cloud API message throughput has been reached.'), usage);
      if (phoneNumberId.startsWith('41') && n <= 1)
        return reply(400, metaError(131056, '(Business Account, Consumer Account) pair rate limit hit'), usage);
      if (phoneNumberId.startsWith('44')) return reply(400, metaError(100, 'Invalid parameter'));
      const wamid = `wamid.${randomUUID()}`;
      const reference = body.biz_opaque_callback_data;
      const accepted = () => {
        record.accepted = true;
        reply(200, {
          messaging_product: 'whatsapp',
          contacts: [{ input: to, ...(body.to ? { wa_id: body.to } : { user_id: body.recipient }) }],
          messages: [{ id: wamid }],
        });
      };
      if (phoneNumberId.startsWith('45')) {
        // Meta does not order webhooks: these may arrive before the send's own answer.
        await sendStatus(phoneNumberId, wamid, 'read', to, reference);
        await sendStatus(phoneNumberId, wamid, 'delivered', to, reference);
        return accepted();
      }
      if (phoneNumberId.startsWith('59')) return;
      if (phoneNumberId.startsWith('46')) {
        setTimeout(() => {
          accepted();
          void sendStatus(phoneNumberId, wamid, 'delivered', to, reference);
        }, 7_000);
        return;
      }
      accepted();
      // Meta reports every message it accepted as `sent` (named by the callback data sent with it).
      setTimeout(() => void sendStatus(phoneNumberId, wamid, 'sent', to, reference), 200);
      if (phoneNumberId.startsWith('40'))
        setTimeout(
          () =>
            void sendStatus(phoneNumberId, wamid, 'failed', to, reference, [
              { code: 131026, title: 'Message undeliverable', message: 'Message undeliverable' },
            ]),
          200,
        );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })),
  );
}
