/**
 * The API's types, all derived from `generated/openapi.ts` (made from the repository's openapi.json by
 * `npm run generate`): resources by their schema names, request bodies and query parameters by their
 * operation ids. A schema change therefore shows up here, and in the type check, at once.
 */
import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];
type Operation = keyof operations;

/** The JSON request body of an operation. */
export type RequestBody<K extends Operation> = operations[K] extends { requestBody?: infer R }
  ? NonNullable<R> extends { content: { 'application/json': infer B } }
    ? B
    : never
  : never;

/** The query parameters of an operation. */
export type QueryParams<K extends Operation> = operations[K] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;

type JsonContent<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type SuccessStatus = 200 | 201 | 202 | 204;

/** The JSON body of an operation's success response(s). */
export type ResponseBody<K extends Operation> = JsonContent<
  operations[K]['responses'][Extract<keyof operations[K]['responses'], SuccessStatus>]
>;

/** List parameters as the SDK takes them (all optional): instants as strings or Dates. */
export type ListParams<K extends Operation, Instants extends string = never> = {
  [P in keyof QueryParams<K>]?: P extends Instants ? string | Date : QueryParams<K>[P];
};

/** A request body as the SDK takes it: the instants it names as ISO 8601 strings or Dates. */
type WithInstants<B, Instants extends string> = {
  [P in keyof B]: P extends Instants ? B[P] | Date : B[P];
};

/** An operation's JSON body as the resource methods take it (the instants named as strings or Dates). */
export type BodyOf<K extends Operation, Instants extends string = never> = WithInstants<RequestBody<K>, Instants>;

/** An operation's query parameters as the resource methods take them (the instants named as strings or Dates). */
export type QueryOf<K extends Operation, Instants extends string = never> = WithInstants<QueryParams<K>, Instants>;

// Resources.
export type Conversation = Schemas['Conversation'];
export type ConversationWithMessages = Schemas['ConversationWithMessages'];
export type NewConversation = Schemas['NewConversation'];
export type Message = Schemas['Message'];
export type MessageAnalysis = Schemas['MessageAnalysis'];
export type Note = Schemas['Note'];
export type CustomerRef = Schemas['CustomerRef'];
export type Customer = Schemas['Customer'];
export type SavedReply = Schemas['SavedReply'];
export type RenderedSavedReply = Schemas['RenderedSavedReply'];
export type Booking = Schemas['Booking'];
export type Payment = Schemas['Payment'];
export type PaymentSettings = Schemas['PaymentSettings'];
/** A resource's busy, closed (outside its opening hours) and free time in a window, and its free slots when a duration was given. */
export type Availability = Schemas['Availability'];
/** A resource's opening hours: `weekly_hours` for every day (`[]`: closed) and `date_overrides`, in `timezone`. */
export type Schedule = Schemas['Schedule'];
/** One stretch of opening hours, as wall-clock times (`09:00` to `17:00`; `24:00` is midnight). */
export type OpeningHours = Schemas['OpeningHours'];
export type User = Schemas['User'];
export type ApiKey = Schemas['ApiKey'];
/** A new API key: the only time `key` is shown. */
export type NewApiKey = Schemas['NewApiKey'];
export type Tenant = Schemas['Tenant'];
/** A new tenant with its first admin and API key. */
export type ProvisionedTenant = Schemas['ProvisionedTenant'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** A new endpoint: the only time (with rotation) `webhook_secret` is shown. */
export type NewWebhookEndpoint = Schemas['NewWebhookEndpoint'];
export type RotatedWebhookEndpoint = Schemas['RotatedWebhookEndpoint'];
export type Delivery = Schemas['Delivery'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type DeliveryWithPayload = Schemas['DeliveryWithPayload'];
export type DeliveryReplay = Schemas['DeliveryReplay'];
export type RecoveryResult = Schemas['RecoveryResult'];
export type TestDelivery = Schemas['TestDelivery'];
export type Analysis = Schemas['Analysis'];
export type Entity = Schemas['Entity'];
export type Suggestions = Schemas['Suggestions'];
export type Categorization = Schemas['Categorization'];
/** The tokens of a login session (login and refresh responses). */
export type Tokens = Schemas['Tokens'];
/** The calling credential: an API key or a user's session, with its role and tenant. */
export type Me = Schemas['Me'];
export type Channel = Schemas['ChannelList']['data'][number];
export type WhatsAppChannel = Schemas['WhatsAppChannel'];
export type ConnectedWhatsApp = Schemas['ConnectedWhatsApp'];
/** A sandbox message received: the conversation and the message, or `{ duplicate: true }`. */
export type InboundResult = ResponseBody<'injectSandboxMessage'>;

// Events: what GET /events lists and every webhook delivery carries.
/** Any event, discriminated by `type`. */
export type Event = Schemas['Event'];
/** What `verifyWebhook` returns. */
export type WebhookEvent = Event;
export type EventType = Event['type'];
/** The event of one type: `EventOf<'booking.created'>`. */
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;

// Request bodies.
export type CreateConversationParams = RequestBody<'createConversation'>;
export type UpdateConversationParams = WithInstants<RequestBody<'updateConversation'>, 'snoozed_until'>;
export type SendMessageParams = RequestBody<'sendMessage'>;
export type CreateNoteParams = RequestBody<'createNote'>;
export type UpdateNoteParams = RequestBody<'updateNote'>;
export type CreateSavedReplyParams = RequestBody<'createSavedReply'>;
export type UpdateSavedReplyParams = RequestBody<'updateSavedReply'>;
export type RenderSavedReplyParams = RequestBody<'renderSavedReply'>;
export type CreateBookingParams = WithInstants<RequestBody<'createBooking'>, 'start_at' | 'end_at'>;
export type UpdateBookingParams = WithInstants<RequestBody<'updateBooking'>, 'start_at' | 'end_at'>;
export type CreateScheduleParams = RequestBody<'createSchedule'>;
export type UpdateScheduleParams = RequestBody<'updateSchedule'>;
export type AnalyzeParams = RequestBody<'analyze'>;
export type SuggestParams = RequestBody<'suggestReplies'>;
export type CategorizeParams = RequestBody<'categorizeConversation'>;
export type CreateWebhookParams = RequestBody<'createWebhook'>;
export type UpdateWebhookParams = RequestBody<'updateWebhook'>;
export type RecoverDeliveriesParams = WithInstants<RequestBody<'recoverWebhookDeliveries'>, 'since' | 'until'>;
export type CreateApiKeyParams = RequestBody<'createApiKey'>;
export type CreateUserParams = RequestBody<'createUser'>;
export type UpdateUserParams = RequestBody<'updateUser'>;
export type SandboxInboundParams = RequestBody<'injectSandboxMessage'>;
export type ConnectWhatsAppParams = RequestBody<'connectWhatsApp'>;
export type LoginParams = RequestBody<'login'>;
export type CreateTenantParams = RequestBody<'createTenant'>;
export type UpdateTenantParams = RequestBody<'updateTenant'>;

// List parameters (`limit` is the page size, `cursor` where to start).
export type ListConversationsParams = ListParams<'listConversations'>;
export type ListMessagesParams = ListParams<'listMessages'>;
export type ListNotesParams = ListParams<'listNotes'>;
export type ListCustomersParams = ListParams<'listCustomers'>;
export type ListSavedRepliesParams = ListParams<'listSavedReplies'>;
export type UpdateCustomerParams = RequestBody<'updateCustomer'>;
export type ListBookingsParams = ListParams<'listBookings', 'from' | 'to'>;
export type ListSchedulesParams = ListParams<'listSchedules'>;
export type ListEventsParams = ListParams<'listEvents', 'since' | 'until'>;
export type ListWebhooksParams = ListParams<'listWebhooks'>;
export type ListDeliveriesParams = ListParams<'listWebhookDeliveries', 'since' | 'until'>;
export type ListEndpointDeliveriesParams = ListParams<'listWebhookEndpointDeliveries', 'since' | 'until'>;
export type ListApiKeysParams = ListParams<'listApiKeys'>;
export type ListUsersParams = ListParams<'listUsers'>;
export type ListTenantsParams = ListParams<'listTenants'>;
export type CancelBookingParams = QueryParams<'cancelBooking'>;
/** `language`: the language to write in (default: the tenant's). */
export type NotifyBookingParams = QueryParams<'notifyBookingCustomer'>;
/** `resource_id`, the window (`from`, `to`, at most 31 days) and optionally the slot length and step in minutes. */
export type AvailabilityParams = QueryOf<'getAvailability', 'from' | 'to'>;
