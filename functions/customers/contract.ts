// Public: the API schemas of customers, reused by other contracts.
import * as z from 'zod/mini';
import { defineContract, named, page, resourceId, tenantId, timestamp, version } from '../platform/api-contract';

const customerFields = {
  id: resourceId('cus'),
  name: z.nullable(z.string()),
  phone: z.nullable(
    z.string().check(
      z.meta({
        pattern: '^\\+[1-9]\\d{7,14}$',
        description: 'E.164. Null for a WhatsApp user who withholds their number (known by `whatsapp_user_id`).',
        examples: ['+4915112345678'],
      }),
    ),
  ),
  whatsapp_user_id: z.nullable(
    z.string().check(
      z.meta({
        description:
          "Meta's business-scoped user id (BSUID) of the customer's WhatsApp account, once a message showed it. Replies go to the phone number when known, else to this id.",
        examples: ['US.13491208655302741918'],
      }),
    ),
  ),
  whatsapp_username: z.nullable(
    z
      .string()
      .check(z.meta({ description: 'The WhatsApp username the customer showed, if any.', examples: ['carla.g'] })),
  ),
};

/** A customer as conversations and bookings embed them. */
export const CustomerRef = named('CustomerRef', z.object(customerFields));

/** A customer as `/customers` returns them. */
export const Customer = named(
  'Customer',
  z.object({ ...customerFields, tenant_id: tenantId, created_at: timestamp, updated_at: timestamp, version }),
);

export const contract = defineContract({
  'customers-list': {
    operationId: 'listCustomers',
    summary: 'List customers',
    description:
      'Newest first. Customers are created by their first contact: an inbound message, a conversation or a booking by phone. ' +
      '`phone` finds the one customer with that number (a page of one, or none). ' +
      '`name` lists those whose name, or the rest of it from one of its next four words (split at spaces, hyphens and apostrophes: `lopez` finds María López and Ana García-López), starts with it, A to Z by what matched, each once, ignoring case and accents (not with `phone`: 400 `invalid_query`). ' +
      "A customer's conversations and bookings are `GET /conversations?customer_id=` and `GET /bookings?customer_id=`.",
    responses: { 200: { description: 'A page of customers.', body: page('CustomerList', Customer) } },
    errors: { 400: ['invalid_query'] },
  },
  'customers-get': {
    operationId: 'getCustomer',
    summary: 'Get a customer',
    description: 'The customer with their phone number and name.',
    params: { id: resourceId('cus') },
    responses: { 200: { description: 'The customer.', body: Customer, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
  },
  'customers-update': {
    operationId: 'updateCustomer',
    summary: 'Update a customer',
    description:
      "Changes the customer's name (null clears it). Their conversations and bookings show the new name " +
      '(their copies are rewritten before the answer, which moves their versions); events already sent keep the name they had. ' +
      'The phone number and the WhatsApp user id identify the customer and cannot be changed here.',
    params: { id: resourceId('cus') },
    ifMatch: true,
    responses: { 200: { description: 'The updated customer.', body: Customer, headers: ['ETag'] } },
    errors: { 404: ['not_found'], 409: ['concurrent_update'] },
  },
});
