import { crc32, deflateSync } from 'node:zlib';
import { provisionTenant } from '../functions/tenants/service';
import { isValidTimezone } from '../functions/platform/validation';

export interface DemoCredentials {
  tenantId: string;
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
}

export const DEMO_ADMIN = { email: 'admin@demo.example', password: 'demo-admin-password', name: 'Demo Admin' };
export const DEMO_AGENT = { email: 'agent@demo.example', password: 'demo-agent-password', name: 'Alex Agent' };
/** The demo's resource; its opening hours are in the machine's time zone, so they read naturally. */
export const DEMO_RESOURCE = 'room-1';
/** The demo's sandbox template, approved, with the quick replies booking reminders are answered with. */
export const DEMO_TEMPLATE = 'booking_reminder';

/** The machine's time zone (`TZ`, else the system's), which the demo tenant takes; UTC when it has none. */
export function machineTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isValidTimezone(zone) ? zone : 'UTC';
}

/**
 * The demo tenant, created through the same provisioning code as POST /platform/tenants, in the machine's
 * time zone: the person trying it sees their own clock in the dashboard and in AI suggestions.
 */
export async function seedDemoTenant(): Promise<DemoCredentials> {
  const created = await provisionTenant(
    { name: 'Demo Company', plan: 'pro', admin: DEMO_ADMIN, timezone: machineTimeZone() },
    new Date(),
  );
  return {
    tenantId: created.tenant.id,
    apiKey: created.apiKey.key,
    adminEmail: DEMO_ADMIN.email,
    adminPassword: DEMO_ADMIN.password,
  };
}

/** Calls the running API as the demo tenant's admin key: the demo is made of ordinary API requests. */
export type DemoApi = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<T>;

interface Made {
  conversations: Record<string, { id: string; customerId: string }>;
}

/**
 * One part of the demo: a name (for the log) and what it does through the API. Later features add theirs
 * to DEMO_STEPS (a booking with a paid deposit, an approved sandbox template, a conversation with a photo).
 */
export interface DemoStep {
  name: string;
  run(api: DemoApi, made: Made, env: DemoEnvironment): Promise<void>;
}

export interface DemoEnvironment {
  /** The machine's IANA time zone (the resource's opening hours and bookings use it). */
  timeZone: string;
  now: Date;
  /** Webhook targets on this machine are allowed (WEBHOOK_ALLOW_PRIVATE_NETWORKS=true). */
  privateNetworks: boolean;
  receiverPort: number;
}

const inbound = (api: DemoApi, from: string, name: string, text: string) =>
  api<{ conversation: { id: string; customer: { id: string } } }>('POST', '/channels/sandbox/inbound', {
    from,
    name,
    text,
  });

/**
 * The demo's first booking time: the start of the next hour but one when that is within 09:00–17:00 local
 * time today, else 10:00 today if it is still ahead, else 10:00 tomorrow. The demo's bookings of the one
 * resource start at it (45 minutes), an hour after it (45 minutes, with a deposit) and two hours after it
 * (90 minutes), so they never overlap and all end before closing (20:00).
 */
function firstSlot(now: Date): Date {
  const start = new Date(now);
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  if (start.getDate() === now.getDate() && start.getHours() >= 9 && start.getHours() < 17) return start;
  const fallback = new Date(now);
  fallback.setHours(10, 0, 0, 0);
  if (fallback > now) return fallback;
  fallback.setDate(fallback.getDate() + 1);
  return fallback;
}

export const DEMO_STEPS: DemoStep[] = [
  {
    name: 'an agent user',
    run: (api) => api('POST', '/users', { ...DEMO_AGENT, role: 'agent' }).then(() => undefined),
  },
  {
    name: 'opening hours',
    run: async (api, _made, env) => {
      const open = [{ start: '08:00', end: '20:00' }];
      const week = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, open]));
      await api('POST', '/schedules', { resource_id: DEMO_RESOURCE, timezone: env.timeZone, weekly_hours: week });
    },
  },
  {
    name: 'saved replies',
    run: async (api) => {
      await api('POST', '/saved-replies', {
        shortcut: 'hours',
        title: 'Opening hours',
        text: 'Hi {{customer.first_name | there}}, we are open every day from 8:00 to 20:00.',
      });
      await api('POST', '/saved-replies', {
        shortcut: 'sorry',
        title: 'Apology',
        text: 'Hi {{customer.first_name | there}}, I am sorry about that. I am looking into it right now. {{agent.first_name}}',
      });
      await api('POST', '/saved-replies', {
        shortcut: 'confirm',
        title: 'Booking confirmed',
        text: 'Thanks {{customer.first_name | there}}, you are booked in. See you soon!',
      });
    },
  },
  {
    name: 'an approved sandbox template',
    run: async (api) => {
      // The sandbox approves it a few seconds after it is created, at the business scheduler's next run
      // (within a minute; a sign-in right after the start may see it pending first).
      await api('POST', '/templates', {
        channel: 'sandbox',
        name: DEMO_TEMPLATE,
        language: 'en',
        category: 'utility',
        body: {
          text: 'Hi {{1}}, a reminder of your booking on {{2}} ({{3}}).',
          examples: ['Maria', 'Tue 10:00', 'Haircut'],
        },
        footer: { text: 'Tap to answer' },
        buttons: ['Confirm', 'Cancel', 'Reschedule'].map((text) => ({ type: 'quick_reply', text })),
      });
    },
  },
  {
    name: 'a resolved conversation',
    run: async (api, made) => {
      const { conversation } = await inbound(api, '+447700900123', 'Sam Taylor', 'Hi, do you have parking nearby?');
      made.conversations.resolved = { id: conversation.id, customerId: conversation.customer.id };
      await api('POST', `/conversations/${conversation.id}/messages`, {
        text: 'Hi Sam, yes: there is free parking right behind the building.',
      });
      await api('PATCH', `/conversations/${conversation.id}`, { status: 'resolved' });
    },
  },
  {
    name: 'a German customer asking to book',
    run: async (api, made) => {
      const { conversation } = await inbound(
        api,
        '+4915223456789',
        'Jonas Weber',
        'Hallo! Kann ich morgen Vormittag einen Termin für einen Haarschnitt bekommen?',
      );
      made.conversations.german = { id: conversation.id, customerId: conversation.customer.id };
    },
  },
  {
    name: 'an upset customer, handed off',
    run: async (api, made) => {
      const { conversation } = await inbound(
        api,
        '+14155550123',
        'Maria Lopez',
        'I was charged twice for my appointment!!',
      );
      await inbound(api, '+14155550123', 'Maria Lopez', 'This is ridiculous, I want to talk to a real person');
      made.conversations.upset = { id: conversation.id, customerId: conversation.customer.id };
    },
  },
  {
    name: 'bookings today',
    run: async (api, made, env) => {
      const book = (
        customerId: string,
        conversationId: string | undefined,
        service: string,
        start: Date,
        minutes: number,
      ) =>
        api('POST', '/bookings', {
          customer: { id: customerId },
          ...(conversationId ? { conversation_id: conversationId } : {}),
          service,
          resource_id: DEMO_RESOURCE,
          start_at: start.toISOString(),
          end_at: new Date(start.getTime() + minutes * 60_000).toISOString(),
          timezone: env.timeZone,
        });
      const { resolved, upset } = made.conversations;
      const first = firstSlot(env.now);
      if (resolved) await book(resolved.customerId, resolved.id, 'Haircut', first, 45);
      if (upset) await book(upset.customerId, upset.id, 'Colour', new Date(first.getTime() + 2 * 3_600_000), 90);
    },
  },
  {
    name: 'a booking with a paid deposit',
    run: async (api, made, env) => {
      const { german } = made.conversations;
      if (!german) return;
      const start = new Date(firstSlot(env.now).getTime() + 3_600_000);
      const booking = await api<{ payment: { id: string } }>('POST', '/bookings', {
        customer: { id: german.customerId },
        conversation_id: german.id,
        service: 'Haircut',
        resource_id: DEMO_RESOURCE,
        start_at: start.toISOString(),
        end_at: new Date(start.getTime() + 45 * 60_000).toISOString(),
        timezone: env.timeZone,
        payment: { purpose: 'deposit', amount: 1500, currency: 'EUR' },
        send_payment_link: true,
      });
      // The customer pays on the sandbox's checkout page (its Pay button): the booking confirms itself.
      const { link } = await api<{ link: string }>('GET', `/payments/${booking.payment.id}`);
      const paid = await fetch(link.replace('?', '/pay?'), { method: 'POST' });
      if (!paid.ok) throw new Error(`paying the deposit: ${paid.status} ${(await paid.text()).slice(0, 300)}`);
    },
  },
  {
    name: 'a webhook endpoint for npm run receiver',
    run: async (api, _made, env) => {
      // Targets on this machine need WEBHOOK_ALLOW_PRIVATE_NETWORKS=true; it starts paused, so nothing fails
      // until the receiver runs and the endpoint is resumed (docs/guides/https-endpoints.md).
      if (!env.privateNetworks) return;
      await api('POST', '/webhooks', {
        url: `https://localhost:${env.receiverPort}/hook`,
        events: ['*'],
        description: 'npm run receiver on this machine',
        is_active: false,
      });
    },
  },
  {
    name: 'a conversation with a photo',
    run: async (api) => {
      // A customer's photo through the sandbox, stored in the media bucket as a WhatsApp photo would be.
      await api('POST', '/channels/sandbox/inbound', {
        from: '+447700900456',
        name: 'Priya Shah',
        media: {
          type: 'image',
          mime_type: 'image/png',
          data: demoPhotoPng(),
          caption: 'Could you do this colour for me?',
        },
      });
    },
  },
];

/**
 * The demo customer's photo: a 240×160 swatch of the copper-to-auburn colour she would like (a PNG of about
 * 2 KB, drawn here so no binary file is kept in the repository).
 */
function demoPhotoPng(): string {
  const [width, height] = [240, 160];
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      // Copper at the top left to deep auburn at the bottom right.
      const t = (x / width + y / height) / 2;
      rows.set(
        [Math.round(196 - 90 * t), Math.round(98 - 62 * t), Math.round(45 - 15 * t)],
        y * (width * 3 + 1) + 1 + x * 3,
      );
    }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const png = [signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))];
  return Buffer.concat(png).toString('base64');
}

/**
 * Fills the demo tenant with a working day through the API at `baseUrl`: each step of DEMO_STEPS in turn. A
 * step that fails is reported and skipped, so the demo still starts.
 */
export async function seedDemoData(
  baseUrl: string,
  demo: DemoCredentials,
  steps: readonly DemoStep[] = DEMO_STEPS,
): Promise<string[]> {
  const api: DemoApi = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${demo.apiKey}`,
        'X-Tenant-ID': demo.tenantId,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  };
  const env: DemoEnvironment = {
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    now: new Date(),
    privateNetworks: process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true',
    receiverPort: Number(process.env.RECEIVER_PORT) || 4443,
  };
  const made: Made = { conversations: {} };
  const failures: string[] = [];
  for (const step of steps) {
    try {
      await step.run(api, made, env);
    } catch (error) {
      failures.push(`${step.name}: ${(error as Error).message}`);
    }
  }
  return failures;
}
