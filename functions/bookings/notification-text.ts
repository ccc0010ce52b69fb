/**
 * What a booking's customer is told about it, in their language: confirmed, moved, requested or
 * cancelled, with its service and time in the booking's own time zone. Pure.
 */
import { formatWhen, type Language } from '../platform/languages';
import type { Booking } from './booking';

type Say = (hi: string, service: string, when: string) => string;

interface Wording {
  hi: string;
  confirmed: Say;
  moved: (hi: string, service: string, when: string, was: string) => string;
  pending: Say;
  cancelled: Say;
}

const WORDING: Record<Language, Wording> = {
  en: {
    hi: 'Hi',
    confirmed: (hi, s, w) => `${hi}, your ${s} is confirmed for ${w}. See you then!`,
    moved: (hi, s, w, was) => `${hi}, your ${s} has moved to ${w} (it was ${was}). See you then!`,
    pending: (hi, s, w) => `${hi}, we have your booking request: ${s} on ${w}. We'll confirm it shortly.`,
    cancelled: (hi, s, w) => `${hi}, your ${s} on ${w} is cancelled. Write to us any time to book again.`,
  },
  es: {
    hi: 'Hola',
    confirmed: (hi, s, w) => `${hi}, tu cita (${s}) está confirmada para el ${w}. ¡Hasta entonces!`,
    moved: (hi, s, w, was) => `${hi}, tu cita (${s}) se ha cambiado al ${w} (antes: ${was}). ¡Hasta entonces!`,
    pending: (hi, s, w) =>
      `${hi}, hemos recibido tu solicitud de cita (${s}) para el ${w}. Te la confirmamos enseguida.`,
    cancelled: (hi, s, w) =>
      `${hi}, tu cita (${s}) del ${w} está cancelada. Escríbenos cuando quieras para volver a reservar.`,
  },
  pt: {
    hi: 'Olá',
    confirmed: (hi, s, w) => `${hi}, a sua marcação (${s}) está confirmada para ${w}. Até breve!`,
    moved: (hi, s, w, was) => `${hi}, a sua marcação (${s}) passou para ${w} (antes: ${was}). Até breve!`,
    pending: (hi, s, w) => `${hi}, recebemos o seu pedido de marcação (${s}) para ${w}. Confirmamos em breve.`,
    cancelled: (hi, s, w) =>
      `${hi}, a sua marcação (${s}) de ${w} foi cancelada. Escreva-nos quando quiser para marcar de novo.`,
  },
  fr: {
    hi: 'Bonjour',
    confirmed: (hi, s, w) => `${hi}, votre rendez-vous (${s}) est confirmé pour le ${w}. À bientôt !`,
    moved: (hi, s, w, was) => `${hi}, votre rendez-vous (${s}) a été déplacé au ${w} (au lieu du ${was}). À bientôt !`,
    pending: (hi, s, w) =>
      `${hi}, nous avons bien reçu votre demande de rendez-vous (${s}) pour le ${w}. Nous vous la confirmons rapidement.`,
    cancelled: (hi, s, w) =>
      `${hi}, votre rendez-vous (${s}) du ${w} est annulé. Écrivez-nous quand vous voulez pour en prendre un autre.`,
  },
  de: {
    hi: 'Hallo',
    confirmed: (hi, s, w) => `${hi}, Ihr Termin (${s}) am ${w} ist bestätigt. Wir freuen uns auf Sie!`,
    moved: (hi, s, w, was) =>
      `${hi}, Ihr Termin (${s}) wurde auf ${w} verschoben (bisher ${was}). Wir freuen uns auf Sie!`,
    pending: (hi, s, w) => `${hi}, wir haben Ihre Terminanfrage (${s}) für ${w} erhalten und bestätigen sie in Kürze.`,
    cancelled: (hi, s, w) =>
      `${hi}, Ihr Termin (${s}) am ${w} ist abgesagt. Schreiben Sie uns jederzeit, wenn Sie einen neuen möchten.`,
  },
};

/** The message for a booking as it stands; null for one that is over (completed, no-show): nothing to tell. */
export function bookingMessage(booking: Booking, language: Language): string | null {
  const words = WORDING[language];
  const first = booking.customer.name?.trim().split(/\s+/)[0];
  const hi = first ? `${words.hi} ${first}` : words.hi;
  const when = (at: string) => formatWhen(at, booking.timezone, language);
  switch (booking.status) {
    case 'confirmed':
      return booking.rescheduled_from
        ? words.moved(hi, booking.service, when(booking.start_at), when(booking.rescheduled_from.start_at))
        : words.confirmed(hi, booking.service, when(booking.start_at));
    case 'pending':
      return words.pending(hi, booking.service, when(booking.start_at));
    case 'cancelled':
      return words.cancelled(hi, booking.service, when(booking.start_at));
    default:
      return null;
  }
}
