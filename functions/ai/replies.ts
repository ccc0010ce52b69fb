/**
 * Reply suggestions from templates in the customer's language, grounded in the facts given: the
 * customer's name, their next booking and the business's opening hours for the week ahead. A template that needs a fact that is missing is replaced by one that asks for it, so a
 * suggestion never invents a booking, a time, a price or an address. Pure, no AWS imports.
 */
import type { AskedAnswer, DayPart } from './asked-time';
import type { Grounding, Suggestion } from './provider-contract';
import { LOCALES, formatWhen, type Language } from '../platform/languages';
import { round, type Intent, type IntentScore } from './taxonomy';

/** The facts a template may use, already worded in the reply's language. */
interface Parts {
  /** "Hi Maria" or "Hi". */
  hi: string;
  /** The customer's first name, if known. */
  name: string | null;
  /** "your Haircut on Tuesday 24 November at 15:00"; empty without a booking. */
  booking: string;
  pending: boolean;
  /** "Tuesday–Friday 09:00–17:00; Saturday 10:00–14:00; Sunday closed"; empty without opening hours. */
  week: string;
  /** "Wednesday 25 November (10:00–12:00, 14:00–17:00); Thursday 26 November (09:00–13:00)"; empty when not known. */
  free: string;
  /** The answer to the day asked about ("On Saturday 28 November in the morning we have free times: 09:00–12:00."); empty when none was asked. */
  asked: string;
}
type Template = (p: Parts) => string;
/**
 * Per intent, best first; `booked` replaces `any` when the customer has an upcoming booking, `open`
 * replaces both when the business's opening hours are known, and `free` replaces all three when its free
 * times are.
 */
type Templates = Record<Intent, { any: Template[]; booked?: Template[]; open?: Template[]; free?: Template[] }>;

/** How the answer to a day asked about is said: the part of the day, free then, closed or full then. */
interface AskedWording {
  part: Record<DayPart, string>;
  free: (when: string, hours: string) => string;
  closed: (when: string, nearest: string) => string;
  full: (when: string, nearest: string) => string;
  /** Closed or full then, and no free time in the week either. */
  none: (when: string, closed: boolean) => string;
  question: string;
}

interface Wording {
  hi: string;
  booking: (service: string, when: string) => string;
  /** How a week's hours are said: a day with none, days in a row, a week the same every day, the separator. */
  week: {
    closed: string;
    days: (first: string, last: string) => string;
    every: (hours: string, closed: boolean) => string;
    separator: string;
  };
  asked: AskedWording;
  templates: Templates;
}

const comma = (name: string | null) => (name ? `, ${name}` : '');

const WORDING: Record<Language, Wording> = {
  en: {
    hi: 'Hi',
    booking: (service, when) => `your ${service} on ${when}`,
    week: {
      closed: 'closed',
      days: (first, last) => `${first}\u2013${last}`,
      every: (hours, closed) => (closed ? 'closed every day' : `every day ${hours}`),
      separator: '; ',
    },
    asked: {
      part: { morning: 'in the morning', afternoon: 'in the afternoon', evening: 'in the evening' },
      free: (when, hours) => `on ${when} we have free times: ${hours}.`,
      closed: (when, nearest) => `we're closed on ${when}. The nearest free times: ${nearest}.`,
      full: (when, nearest) => `${when} is fully booked. The nearest free times: ${nearest}.`,
      none: (when, closed) =>
        `we're ${closed ? 'closed' : 'fully booked'} on ${when}, and I have no free time in the coming week.`,
      question: 'Which time suits you?',
    },
    templates: {
      reschedule_booking: {
        booked: [
          (x) => `${x.hi}, of course. I can move ${x.booking}. Which day and time would suit you better?`,
          (x) => `${x.hi}, no problem at all. What new time would work for you instead of ${x.booking}?`,
        ],
        any: [
          (x) =>
            `${x.hi}, happy to help you reschedule. I can't find an upcoming booking for you, so could you tell me the date and time of the one you'd like to move?`,
        ],
      },
      cancel_booking: {
        booked: [
          (x) => `${x.hi}, I'm sorry you can't make it. Shall I cancel ${x.booking}?`,
          (x) =>
            `${x.hi}, no problem. Would you like me to cancel ${x.booking}, or would you rather move it to another time?`,
        ],
        any: [
          (x) =>
            `${x.hi}, I can help with that. I can't find an upcoming booking for you, so could you tell me the date of the one you'd like to cancel?`,
        ],
      },
      booking_status: {
        booked: [
          (x) => `${x.hi}, yes: ${x.booking} is ${x.pending ? 'pending confirmation' : 'confirmed'}. See you then!`,
          (x) => `${x.hi}, I've checked: you're booked for ${x.booking}. Is there anything you'd like to change?`,
        ],
        any: [
          (x) =>
            `${x.hi}, I can't see an upcoming booking for you. Could you tell me the date you booked, or the name it's under?`,
        ],
      },
      book_appointment: {
        free: [
          (x) =>
            `${x.hi}, I'd be happy to book you in. We have free times: ${x.free}. Which service would you like, and which time suits you?`,
          (x) => `${x.hi}, sure! These are our next free times: ${x.free}. Which one works best for you?`,
        ],
        any: [
          (x) => `${x.hi}, I'd be happy to book you in. Which service would you like, and which day and time suit you?`,
          (x) => `${x.hi}, sure! What day works best for you? I'll check what we have available.`,
        ],
      },
      pricing: {
        any: [(x) => `${x.hi}, thanks for asking. Which service are you interested in? I'll send you the exact price.`],
      },
      opening_hours: {
        open: [(x) => `${x.hi}, our opening hours for the coming days: ${x.week}.`],
        any: [
          (x) =>
            `${x.hi}, thanks for your message. Which day are you thinking of coming in? I'll confirm our hours for that day.`,
        ],
      },
      location: { any: [(x) => `${x.hi}, I'll send you our address and directions right away.`] },
      payment_issue: {
        any: [
          (x) =>
            `${x.hi}, I'm sorry about the trouble with your payment. Could you send me the date and amount of the charge? I'll look into it straight away.`,
          (x) =>
            `${x.hi}, thank you for letting us know. I'm checking the payment now and will get back to you as soon as possible.`,
        ],
      },
      complaint: {
        any: [
          (x) =>
            `${x.hi}, I'm really sorry about your experience. Thank you for telling us. Could you share a few more details so we can put it right?`,
          (x) =>
            `${x.hi}, I'm so sorry to hear that. I'm passing this to our manager, who will get back to you personally.`,
        ],
      },
      request_human: {
        any: [(x) => `${x.hi}, of course. I'm passing you to a member of our team now; they'll reply here shortly.`],
      },
      thanks: { any: [(x) => `You're very welcome${comma(x.name)}! Is there anything else I can help with?`] },
      goodbye: { any: [(x) => `Thanks for getting in touch${comma(x.name)}. Have a great day!`] },
      greeting: { any: [(x) => `${x.hi}! How can I help you today?`] },
      other: { any: [(x) => `${x.hi}, thanks for your message. Let me check and get back to you shortly.`] },
    },
  },
  es: {
    hi: 'Hola',
    booking: (service, when) => `tu cita de ${service} del ${when}`,
    week: {
      closed: 'cerrado',
      days: (first, last) => `de ${first} a ${last}`,
      every: (hours, closed) => (closed ? 'cerrado todos los días' : `todos los días ${hours}`),
      separator: '; ',
    },
    asked: {
      part: { morning: 'por la mañana', afternoon: 'por la tarde', evening: 'por la noche' },
      free: (when, hours) => `el ${when} tenemos huecos libres: ${hours}.`,
      closed: (when, nearest) => `el ${when} está cerrado. Los huecos libres más cercanos: ${nearest}.`,
      full: (when, nearest) => `el ${when} está completo. Los huecos libres más cercanos: ${nearest}.`,
      none: (when, closed) =>
        `el ${when} está ${closed ? 'cerrado' : 'completo'}, y no tengo huecos libres en la próxima semana.`,
      question: '¿Qué hora te viene bien?',
    },
    templates: {
      reschedule_booking: {
        booked: [
          (x) => `${x.hi}, claro. Puedo cambiar ${x.booking}. ¿Qué día y hora te vendrían mejor?`,
          (x) => `${x.hi}, sin problema. ¿Qué otra hora te iría bien en lugar de ${x.booking}?`,
        ],
        any: [
          (x) =>
            `${x.hi}, te ayudo a cambiar la cita. No encuentro ninguna reserva próxima a tu nombre, ¿me dices la fecha y la hora de la que quieres mover?`,
        ],
      },
      cancel_booking: {
        booked: [
          (x) => `${x.hi}, siento que no puedas venir. ¿Cancelo ${x.booking}?`,
          (x) => `${x.hi}, sin problema. ¿Quieres que cancele ${x.booking} o prefieres pasarla a otro momento?`,
        ],
        any: [
          (x) =>
            `${x.hi}, te ayudo con eso. No encuentro ninguna reserva próxima a tu nombre, ¿me dices la fecha de la que quieres cancelar?`,
        ],
      },
      booking_status: {
        booked: [
          (x) =>
            `${x.hi}, sí: ${x.booking} está ${x.pending ? 'pendiente de confirmación' : 'confirmada'}. ¡Nos vemos!`,
          (x) => `${x.hi}, lo he comprobado: tienes ${x.booking}. ¿Quieres cambiar algo?`,
        ],
        any: [
          (x) =>
            `${x.hi}, no veo ninguna reserva próxima a tu nombre. ¿Me dices la fecha que reservaste o a nombre de quién está?`,
        ],
      },
      book_appointment: {
        free: [
          (x) =>
            `${x.hi}, encantados de darte cita. Tenemos huecos libres: ${x.free}. ¿Qué servicio quieres y qué hora te viene bien?`,
          (x) => `${x.hi}, ¡claro! Estos son nuestros próximos huecos libres: ${x.free}. ¿Cuál te viene mejor?`,
        ],
        any: [
          (x) => `${x.hi}, encantados de darte cita. ¿Qué servicio quieres y qué día y hora te vienen bien?`,
          (x) => `${x.hi}, ¡claro! ¿Qué día te viene mejor? Miro qué huecos tenemos.`,
        ],
      },
      pricing: {
        any: [(x) => `${x.hi}, gracias por preguntar. ¿Qué servicio te interesa? Te paso el precio exacto.`],
      },
      opening_hours: {
        open: [(x) => `${x.hi}, nuestro horario para los próximos días: ${x.week}.`],
        any: [(x) => `${x.hi}, gracias por tu mensaje. ¿Qué día piensas venir? Te confirmo el horario de ese día.`],
      },
      location: { any: [(x) => `${x.hi}, ahora mismo te envío nuestra dirección y cómo llegar.`] },
      payment_issue: {
        any: [
          (x) =>
            `${x.hi}, siento el problema con el pago. ¿Me envías la fecha y el importe del cargo? Lo reviso enseguida.`,
          (x) => `${x.hi}, gracias por avisarnos. Estoy revisando el pago y te respondo lo antes posible.`,
        ],
      },
      complaint: {
        any: [
          (x) =>
            `${x.hi}, siento mucho lo ocurrido y gracias por contárnoslo. ¿Me das algún detalle más para poder solucionarlo?`,
          (x) => `${x.hi}, lamento mucho oír eso. Se lo paso a nuestra responsable, que te contactará personalmente.`,
        ],
      },
      request_human: {
        any: [(x) => `${x.hi}, por supuesto. Te paso con una persona del equipo; te responderá aquí en breve.`],
      },
      thanks: { any: [(x) => `¡De nada${comma(x.name)}! ¿Te puedo ayudar en algo más?`] },
      goodbye: { any: [(x) => `Gracias por escribirnos${comma(x.name)}. ¡Que tengas un buen día!`] },
      greeting: { any: [(x) => `¡${x.hi}! ¿En qué te puedo ayudar?`] },
      other: { any: [(x) => `${x.hi}, gracias por tu mensaje. Lo consulto y te digo algo en breve.`] },
    },
  },
  pt: {
    hi: 'Olá',
    booking: (service, when) => `o seu horário de ${service} (${when})`,
    week: {
      closed: 'fechado',
      days: (first, last) => `de ${first} a ${last}`,
      every: (hours, closed) => (closed ? 'fechado todos os dias' : `todos os dias ${hours}`),
      separator: '; ',
    },
    asked: {
      part: { morning: 'de manhã', afternoon: 'à tarde', evening: 'à noite' },
      free: (when, hours) => `${when} temos horários livres: ${hours}.`,
      closed: (when, nearest) => `${when} estamos fechados. Os horários livres mais próximos: ${nearest}.`,
      full: (when, nearest) => `${when} está tudo ocupado. Os horários livres mais próximos: ${nearest}.`,
      none: (when, closed) =>
        `${when} ${closed ? 'estamos fechados' : 'está tudo ocupado'}, e não tenho horários livres na próxima semana.`,
      question: 'Que hora lhe dá jeito?',
    },
    templates: {
      reschedule_booking: {
        booked: [
          (x) => `${x.hi}, claro. Posso mudar ${x.booking}. Que dia e hora seriam melhores para si?`,
          (x) => `${x.hi}, sem problema. Que outro horário lhe serve em vez de ${x.booking}?`,
        ],
        any: [
          (x) =>
            `${x.hi}, ajudo a remarcar. Não encontro nenhum agendamento próximo no seu nome; pode dizer-me a data e a hora do que quer mudar?`,
        ],
      },
      cancel_booking: {
        booked: [
          (x) => `${x.hi}, que pena que não possa vir. Cancelo ${x.booking}?`,
          (x) => `${x.hi}, sem problema. Quer que cancele ${x.booking} ou prefere mudar para outro horário?`,
        ],
        any: [
          (x) =>
            `${x.hi}, posso ajudar. Não encontro nenhum agendamento próximo no seu nome; pode dizer-me a data do que quer cancelar?`,
        ],
      },
      booking_status: {
        booked: [
          (x) => `${x.hi}, sim: ${x.booking} está ${x.pending ? 'a aguardar confirmação' : 'confirmado'}. Até lá!`,
          (x) => `${x.hi}, já verifiquei: tem ${x.booking}. Quer alterar alguma coisa?`,
        ],
        any: [
          (x) =>
            `${x.hi}, não encontro nenhum agendamento próximo no seu nome. Pode dizer-me a data que marcou ou em nome de quem está?`,
        ],
      },
      book_appointment: {
        free: [
          (x) =>
            `${x.hi}, com todo o gosto. Temos horários livres: ${x.free}. Que serviço deseja e que hora lhe dá jeito?`,
          (x) => `${x.hi}, claro! Estes são os nossos próximos horários livres: ${x.free}. Qual prefere?`,
        ],
        any: [
          (x) => `${x.hi}, com todo o gosto. Que serviço deseja e que dia e hora lhe dão jeito?`,
          (x) => `${x.hi}, claro! Que dia é melhor para si? Vou ver os horários disponíveis.`,
        ],
      },
      pricing: {
        any: [(x) => `${x.hi}, obrigado pela pergunta. Que serviço lhe interessa? Envio já o preço exato.`],
      },
      opening_hours: {
        open: [(x) => `${x.hi}, o nosso horário para os próximos dias: ${x.week}.`],
        any: [(x) => `${x.hi}, obrigado pela mensagem. Que dia pensa vir? Confirmo o nosso horário nesse dia.`],
      },
      location: { any: [(x) => `${x.hi}, envio já a nossa morada e como chegar.`] },
      payment_issue: {
        any: [
          (x) =>
            `${x.hi}, lamento o problema com o pagamento. Pode enviar-me a data e o valor da cobrança? Vou verificar de imediato.`,
          (x) => `${x.hi}, obrigado por nos avisar. Estou a verificar o pagamento e respondo assim que possível.`,
        ],
      },
      complaint: {
        any: [
          (x) =>
            `${x.hi}, lamento muito o que aconteceu e obrigado por nos contar. Pode dar-me mais alguns detalhes para resolvermos?`,
          (x) => `${x.hi}, lamento muito. Vou passar isto ao nosso responsável, que entrará em contacto consigo.`,
        ],
      },
      request_human: {
        any: [(x) => `${x.hi}, claro. Vou passá-lo a uma pessoa da nossa equipa; responderá aqui em breve.`],
      },
      thanks: { any: [(x) => `De nada${comma(x.name)}! Posso ajudar em mais alguma coisa?`] },
      goodbye: { any: [(x) => `Obrigado pelo contacto${comma(x.name)}. Tenha um ótimo dia!`] },
      greeting: { any: [(x) => `${x.hi}! Em que posso ajudar?`] },
      other: { any: [(x) => `${x.hi}, obrigado pela mensagem. Vou verificar e já lhe respondo.`] },
    },
  },
  fr: {
    hi: 'Bonjour',
    booking: (service, when) => `votre rendez-vous ${service} du ${when}`,
    week: {
      closed: 'fermé',
      days: (first, last) => `du ${first} au ${last}`,
      every: (hours, closed) => (closed ? 'fermé tous les jours' : `tous les jours ${hours}`),
      separator: ' ; ',
    },
    asked: {
      part: { morning: 'le matin', afternoon: "l'après-midi", evening: 'le soir' },
      free: (when, hours) => `${when}, nous avons des créneaux libres : ${hours}.`,
      closed: (when, nearest) => `nous sommes fermés ${when}. Les créneaux libres les plus proches : ${nearest}.`,
      full: (when, nearest) => `${when}, tout est réservé. Les créneaux libres les plus proches : ${nearest}.`,
      none: (when, closed) =>
        `${closed ? 'nous sommes fermés' : 'tout est réservé'} ${when}, et je n'ai aucun créneau libre la semaine prochaine.`,
      question: 'Quelle heure vous convient ?',
    },
    templates: {
      reschedule_booking: {
        booked: [
          (x) =>
            `${x.hi}, bien sûr. Je peux déplacer ${x.booking}. Quel jour et quelle heure vous conviendraient mieux ?`,
          (x) => `${x.hi}, aucun problème. Quel autre horaire vous irait à la place de ${x.booking} ?`,
        ],
        any: [
          (x) =>
            `${x.hi}, je peux vous aider à déplacer votre rendez-vous. Je ne trouve pas de réservation à venir à votre nom : pouvez-vous m'indiquer la date et l'heure de celle à déplacer ?`,
        ],
      },
      cancel_booking: {
        booked: [
          (x) => `${x.hi}, dommage que vous ne puissiez pas venir. J'annule ${x.booking} ?`,
          (x) => `${x.hi}, pas de souci. Voulez-vous que j'annule ${x.booking}, ou préférez-vous le déplacer ?`,
        ],
        any: [
          (x) =>
            `${x.hi}, je peux m'en occuper. Je ne trouve pas de réservation à venir à votre nom : pouvez-vous m'indiquer la date de celle à annuler ?`,
        ],
      },
      booking_status: {
        booked: [
          (x) =>
            `${x.hi}, oui : ${x.booking} est ${x.pending ? 'en attente de confirmation' : 'confirmé'}. À bientôt !`,
          (x) => `${x.hi}, j'ai vérifié : vous avez ${x.booking}. Souhaitez-vous changer quelque chose ?`,
        ],
        any: [
          (x) =>
            `${x.hi}, je ne vois pas de réservation à venir à votre nom. Pouvez-vous m'indiquer la date réservée ou le nom de la réservation ?`,
        ],
      },
      book_appointment: {
        free: [
          (x) =>
            `${x.hi}, avec plaisir. Nous avons des créneaux libres : ${x.free}. Quelle prestation souhaitez-vous, et quelle heure vous arrange ?`,
          (x) => `${x.hi}, bien sûr ! Voici nos prochains créneaux libres : ${x.free}. Lequel vous convient le mieux ?`,
        ],
        any: [
          (x) =>
            `${x.hi}, avec plaisir. Quelle prestation souhaitez-vous, et quel jour et quelle heure vous arrangent ?`,
          (x) => `${x.hi}, bien sûr ! Quel jour vous convient le mieux ? Je regarde nos disponibilités.`,
        ],
      },
      pricing: {
        any: [
          (x) => `${x.hi}, merci pour votre question. Quelle prestation vous intéresse ? Je vous envoie le prix exact.`,
        ],
      },
      opening_hours: {
        open: [(x) => `${x.hi}, nos horaires pour les jours à venir : ${x.week}.`],
        any: [
          (x) =>
            `${x.hi}, merci pour votre message. Quel jour pensez-vous venir ? Je vous confirme nos horaires ce jour-là.`,
        ],
      },
      location: { any: [(x) => `${x.hi}, je vous envoie tout de suite notre adresse et l'itinéraire.`] },
      payment_issue: {
        any: [
          (x) =>
            `${x.hi}, désolé pour ce souci de paiement. Pouvez-vous m'envoyer la date et le montant du débit ? Je vérifie immédiatement.`,
          (x) => `${x.hi}, merci de nous avoir prévenus. Je vérifie le paiement et je reviens vers vous au plus vite.`,
        ],
      },
      complaint: {
        any: [
          (x) =>
            `${x.hi}, je suis vraiment désolé de votre expérience, merci de nous en avoir parlé. Pouvez-vous m'en dire un peu plus pour que nous puissions arranger cela ?`,
          (x) => `${x.hi}, je suis navré. Je transmets à notre responsable, qui reviendra personnellement vers vous.`,
        ],
      },
      request_human: {
        any: [
          (x) =>
            `${x.hi}, bien sûr. Je vous mets en relation avec un membre de l'équipe ; il vous répondra ici rapidement.`,
        ],
      },
      thanks: { any: [(x) => `Avec plaisir${comma(x.name)} ! Puis-je vous aider pour autre chose ?`] },
      goodbye: { any: [(x) => `Merci de nous avoir contactés${comma(x.name)}. Très bonne journée !`] },
      greeting: { any: [(x) => `${x.hi} ! Comment puis-je vous aider ?`] },
      other: { any: [(x) => `${x.hi}, merci pour votre message. Je vérifie et je reviens vers vous rapidement.`] },
    },
  },
  de: {
    hi: 'Hallo',
    booking: (service, when) => `Ihren Termin (${service}) am ${when}`,
    week: {
      closed: 'geschlossen',
      days: (first, last) => `${first} bis ${last}`,
      every: (hours, closed) => (closed ? 'täglich geschlossen' : `täglich ${hours}`),
      separator: '; ',
    },
    asked: {
      part: { morning: 'vormittags', afternoon: 'nachmittags', evening: 'abends' },
      free: (when, hours) => `am ${when} haben wir freie Zeiten: ${hours}.`,
      closed: (when, nearest) => `am ${when} haben wir geschlossen. Die nächsten freien Zeiten: ${nearest}.`,
      full: (when, nearest) => `am ${when} sind wir ausgebucht. Die nächsten freien Zeiten: ${nearest}.`,
      none: (when, closed) =>
        `am ${when} ${closed ? 'haben wir geschlossen' : 'sind wir ausgebucht'}, und in der kommenden Woche habe ich keine freie Zeit.`,
      question: 'Welche Uhrzeit passt Ihnen?',
    },
    templates: {
      reschedule_booking: {
        booked: [
          (x) =>
            `${x.hi}, gern. Ich kann ${x.booking} verschieben. Welcher Tag und welche Uhrzeit passen Ihnen besser?`,
          (x) => `${x.hi}, kein Problem. Auf welchen Tag und welche Uhrzeit soll ich ${x.booking} legen?`,
        ],
        any: [
          (x) =>
            `${x.hi}, gern helfe ich beim Verschieben. Ich finde keinen kommenden Termin auf Ihren Namen. Nennen Sie mir bitte Datum und Uhrzeit des Termins, den Sie verschieben möchten?`,
        ],
      },
      cancel_booking: {
        booked: [
          (x) => `${x.hi}, schade, dass Sie nicht kommen können. Soll ich ${x.booking} absagen?`,
          (x) => `${x.hi}, kein Problem. Soll ich ${x.booking} absagen, oder möchten Sie ihn lieber verschieben?`,
        ],
        any: [
          (x) =>
            `${x.hi}, da helfe ich gern. Ich finde keinen kommenden Termin auf Ihren Namen. Nennen Sie mir bitte das Datum des Termins, den Sie absagen möchten?`,
        ],
      },
      booking_status: {
        booked: [
          (x) => `${x.hi}, ja: ${x.booking} ist ${x.pending ? 'noch nicht bestätigt' : 'bestätigt'}. Bis dann!`,
          (x) => `${x.hi}, ich habe nachgesehen: Sie haben ${x.booking}. Möchten Sie etwas ändern?`,
        ],
        any: [
          (x) =>
            `${x.hi}, ich sehe keinen kommenden Termin auf Ihren Namen. Nennen Sie mir bitte das gebuchte Datum oder den Namen der Buchung?`,
        ],
      },
      book_appointment: {
        free: [
          (x) =>
            `${x.hi}, sehr gern. Wir haben noch freie Zeiten: ${x.free}. Welche Leistung möchten Sie, und welche Uhrzeit passt Ihnen?`,
          (x) => `${x.hi}, gern! Das sind unsere nächsten freien Zeiten: ${x.free}. Was passt Ihnen am besten?`,
        ],
        any: [
          (x) => `${x.hi}, sehr gern. Welche Leistung möchten Sie, und welcher Tag und welche Uhrzeit passen Ihnen?`,
          (x) => `${x.hi}, gern! Welcher Tag passt Ihnen am besten? Ich schaue, was wir frei haben.`,
        ],
      },
      pricing: {
        any: [
          (x) =>
            `${x.hi}, danke für Ihre Frage. Welche Leistung interessiert Sie? Ich schicke Ihnen den genauen Preis.`,
        ],
      },
      opening_hours: {
        open: [(x) => `${x.hi}, unsere Öffnungszeiten für die nächsten Tage: ${x.week}.`],
        any: [
          (x) =>
            `${x.hi}, danke für Ihre Nachricht. An welchem Tag möchten Sie kommen? Ich bestätige Ihnen unsere Zeiten für diesen Tag.`,
        ],
      },
      location: { any: [(x) => `${x.hi}, ich schicke Ihnen gleich unsere Adresse und die Wegbeschreibung.`] },
      payment_issue: {
        any: [
          (x) =>
            `${x.hi}, das Problem mit der Zahlung tut mir leid. Schicken Sie mir bitte Datum und Betrag der Abbuchung? Ich sehe sofort nach.`,
          (x) => `${x.hi}, danke für den Hinweis. Ich prüfe die Zahlung und melde mich so schnell wie möglich.`,
        ],
      },
      complaint: {
        any: [
          (x) =>
            `${x.hi}, das tut mir wirklich leid, und danke, dass Sie es uns sagen. Können Sie mir etwas mehr erzählen, damit wir es wiedergutmachen können?`,
          (x) =>
            `${x.hi}, das tut mir sehr leid. Ich gebe es an unsere Leitung weiter, die sich persönlich bei Ihnen meldet.`,
        ],
      },
      request_human: {
        any: [
          (x) =>
            `${x.hi}, natürlich. Ich verbinde Sie mit jemandem aus unserem Team; Sie bekommen hier gleich eine Antwort.`,
        ],
      },
      thanks: { any: [(x) => `Gern geschehen${comma(x.name)}! Kann ich sonst noch helfen?`] },
      goodbye: { any: [(x) => `Danke für Ihre Nachricht${comma(x.name)}. Einen schönen Tag noch!`] },
      greeting: { any: [(x) => `${x.hi}! Wie kann ich Ihnen helfen?`] },
      other: { any: [(x) => `${x.hi}, danke für Ihre Nachricht. Ich kläre das und melde mich gleich.`] },
    },
  },
};

function parts(g: Grounding, language: Language): Parts {
  const wording = WORDING[language];
  const name = g.customerName?.split(/\s+/)[0] || null;
  const b = g.nextBooking;
  return {
    hi: name ? `${wording.hi} ${name}` : wording.hi,
    name,
    booking: b ? wording.booking(b.service, formatWhen(b.start_at, b.timezone, language)) : '',
    pending: b?.status === 'pending',
    week: g.openingHours ? weekText(g.openingHours.days, language) : '',
    free: g.freeTimes?.days.length ? datedText(g.freeTimes.days, language) : '',
    asked: g.askedFor ? askedText(g.askedFor, language) : '',
  };
}

/** The answer to the day asked about, as the start of a sentence after the greeting. */
function askedText(a: AskedAnswer, language: Language): string {
  const words = WORDING[language].asked;
  const date = new Intl.DateTimeFormat(LOCALES[language], {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(`${a.date}T12:00:00Z`));
  const when = a.part ? `${date} ${words.part[a.part]}` : date;
  if (a.state === 'free')
    return words.free(when, (a.days[0]?.hours ?? []).map((h) => `${h.start}\u2013${h.end}`).join(', '));
  if (!a.days.length) return words.none(when, a.state === 'closed');
  return words[a.state](when, datedText(a.days, language));
}

/** Intents whose answer is the free time on the day the customer asks about, when they ask about one. */
const ANSWERS_ASKED_TIME: readonly Intent[] = ['book_appointment', 'opening_hours'];

/** Each day by its date and its stretches: "Wednesday 25 November (10:00–12:00, 14:00–17:00); Thursday …". */
export function datedText(
  days: readonly { date: string; hours: readonly { start: string; end: string }[] }[],
  language: Language,
): string {
  const label = new Intl.DateTimeFormat(LOCALES[language], {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  });
  return days
    .map(
      (d) =>
        `${label.format(new Date(`${d.date}T12:00:00Z`))} (${d.hours.map((h) => `${h.start}\u2013${h.end}`).join(', ')})`,
    )
    .join(WORDING[language].week.separator);
}

/** Days in a row with the same hours go together: "Monday–Friday 09:00–17:00; Saturday closed". */
export function weekText(
  days: readonly { date: string; hours: readonly { start: string; end: string }[] }[],
  language: Language,
): string {
  const words = WORDING[language].week;
  const weekday = new Intl.DateTimeFormat(LOCALES[language], { weekday: 'long', timeZone: 'UTC' });
  const name = (date: string) => weekday.format(new Date(`${date}T12:00:00Z`));
  const hoursText = (hours: readonly { start: string; end: string }[]) =>
    hours.length ? hours.map((h) => `${h.start}\u2013${h.end}`).join(', ') : words.closed;
  const groups: { first: string; last: string; text: string }[] = [];
  for (const day of days) {
    const text = hoursText(day.hours);
    const previous = groups.at(-1);
    if (previous?.text === text) previous.last = day.date;
    else groups.push({ first: day.date, last: day.date, text });
  }
  const [only] = groups;
  if (only && groups.length === 1 && days.length === 7) return words.every(only.text, only.text === words.closed);
  return groups
    .map((g) => `${g.first === g.last ? name(g.first) : words.days(name(g.first), name(g.last))} ${g.text}`)
    .join(words.separator);
}

function templates(intent: Intent, g: Grounding, language: Language): Template[] {
  const wording = WORDING[language];
  if (g.askedFor && ANSWERS_ASKED_TIME.includes(intent))
    return [(x) => `${x.hi}, ${x.asked}${g.askedFor?.days.length ? ` ${wording.asked.question}` : ''}`];
  const set = wording.templates[intent];
  return (
    (g.freeTimes?.days.length && set.free) || (g.openingHours && set.open) || (g.nextBooking && set.booked) || set.any
  );
}

/**
 * Up to `count` replies: the templates of the likeliest intent, then one for each runner-up intent
 * the classifier still gives some weight to.
 */
export function groundedReplies(
  intents: readonly IntentScore[],
  grounding: Grounding,
  count: number,
  language: Language = 'en',
): Suggestion[] {
  const out: Suggestion[] = [];
  const facts = parts(grounding, language);
  for (const [rank, scored] of intents.entries()) {
    if (rank > 0 && scored.confidence < 0.15) break;
    for (const [i, template] of templates(scored.name, grounding, language).entries()) {
      if (rank > 0 && i > 0) break;
      out.push({
        text: template(facts),
        intent: scored.name,
        confidence: round(scored.confidence * (i === 0 ? 1 : 0.8)),
      });
    }
  }
  return out.sort((a, b) => b.confidence - a.confidence).slice(0, count);
}
