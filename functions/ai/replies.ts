/**
 * Reply suggestions from templates, grounded in the facts given: the customer's name and their next
 * booking. A template that needs a fact that is missing is replaced by one that asks for it, so a
 * suggestion never invents a booking, a time, a price or an address. Pure, no AWS imports.
 */
import type { Grounding, Suggestion } from './provider-contract';
import { round, type Intent, type IntentScore } from './taxonomy';

type Template = (g: Grounding) => string;

/** "Tuesday 24 November at 15:00", in the booking's own time zone. */
export function formatWhen(iso: string, timeZone: string): string {
  const d = new Date(iso);
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(d);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(d);
  return `${day} at ${time}`;
}

const hi = (g: Grounding) => (g.customerName ? `Hi ${g.customerName.split(/\s+/)[0]}` : 'Hi');
const booking = (g: Grounding) =>
  g.nextBooking ? `your ${g.nextBooking.service} on ${formatWhen(g.nextBooking.start_at, g.nextBooking.timezone)}` : '';

/** Per intent, best first. Templates that cite the booking come first when there is one. */
function templates(intent: Intent, g: Grounding): Template[] {
  const has = g.nextBooking !== null;
  switch (intent) {
    case 'reschedule_booking':
      return has
        ? [
            (x) => `${hi(x)}, of course. I can move ${booking(x)}. Which day and time would suit you better?`,
            (x) => `${hi(x)}, no problem at all. What new time would work for you instead of ${booking(x)}?`,
          ]
        : [
            (x) =>
              `${hi(x)}, happy to help you reschedule. I can't find an upcoming booking for you, so could you tell me the date and time of the one you'd like to move?`,
          ];
    case 'cancel_booking':
      return has
        ? [
            (x) => `${hi(x)}, I'm sorry you can't make it. Shall I cancel ${booking(x)}?`,
            (x) =>
              `${hi(x)}, no problem. Would you like me to cancel ${booking(x)}, or would you rather move it to another time?`,
          ]
        : [
            (x) =>
              `${hi(x)}, I can help with that. I can't find an upcoming booking for you, so could you tell me the date of the one you'd like to cancel?`,
          ];
    case 'booking_status':
      return has
        ? [
            (x) =>
              `${hi(x)}, yes: ${booking(x)} is ${x.nextBooking?.status === 'pending' ? 'pending confirmation' : 'confirmed'}. See you then!`,
            (x) => `${hi(x)}, I've checked: you're booked for ${booking(x)}. Is there anything you'd like to change?`,
          ]
        : [
            (x) =>
              `${hi(x)}, I can't see an upcoming booking for you. Could you tell me the date you booked, or the name it's under?`,
          ];
    case 'book_appointment':
      return [
        (x) => `${hi(x)}, I'd be happy to book you in. Which service would you like, and which day and time suit you?`,
        (x) => `${hi(x)}, sure! What day works best for you? I'll check what we have available.`,
      ];
    case 'pricing':
      return [
        (x) => `${hi(x)}, thanks for asking. Which service are you interested in? I'll send you the exact price.`,
      ];
    case 'opening_hours':
      return [
        (x) =>
          `${hi(x)}, thanks for your message. Which day are you thinking of coming in? I'll confirm our hours for that day.`,
      ];
    case 'location':
      return [(x) => `${hi(x)}, I'll send you our address and directions right away.`];
    case 'payment_issue':
      return [
        (x) =>
          `${hi(x)}, I'm sorry about the trouble with your payment. Could you send me the date and amount of the charge? I'll look into it straight away.`,
        (x) =>
          `${hi(x)}, thank you for letting us know. I'm checking the payment now and will get back to you as soon as possible.`,
      ];
    case 'complaint':
      return [
        (x) =>
          `${hi(x)}, I'm really sorry about your experience. Thank you for telling us. Could you share a few more details so we can put it right?`,
        (x) =>
          `${hi(x)}, I'm so sorry to hear that. I'm passing this to our manager, who will get back to you personally.`,
      ];
    case 'request_human':
      return [(x) => `${hi(x)}, of course. I'm passing you to a member of our team now; they'll reply here shortly.`];
    case 'thanks':
      return [
        (x) =>
          `You're very welcome${x.customerName ? `, ${x.customerName.split(/\s+/)[0]}` : ''}! Is there anything else I can help with?`,
      ];
    case 'goodbye':
      return [
        (x) =>
          `Thanks for getting in touch${x.customerName ? `, ${x.customerName.split(/\s+/)[0]}` : ''}. Have a great day!`,
      ];
    case 'greeting':
      return [(x) => `${hi(x)}! How can I help you today?`];
    case 'other':
      return [(x) => `${hi(x)}, thanks for your message. Let me check and get back to you shortly.`];
  }
}

/**
 * Up to `count` replies: the templates of the likeliest intent, then one for each runner-up intent
 * the classifier still gives some weight to.
 */
export function groundedReplies(intents: readonly IntentScore[], grounding: Grounding, count: number): Suggestion[] {
  const out: Suggestion[] = [];
  for (const [rank, scored] of intents.entries()) {
    if (rank > 0 && scored.confidence < 0.15) break;
    for (const [i, template] of templates(scored.name, grounding).entries()) {
      if (rank > 0 && i > 0) break;
      out.push({
        text: template(grounding),
        intent: scored.name,
        confidence: round(scored.confidence * (i === 0 ? 1 : 0.8)),
      });
    }
  }
  return out.sort((a, b) => b.confidence - a.confidence).slice(0, count);
}
