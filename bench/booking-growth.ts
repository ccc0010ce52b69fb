// The growth case both the request costs (requests.ts) and the API path (api-path.ts) measure: `POST
// /bookings` beside a resource holding 1, then 500, future bookings. Each measured booking takes the free
// half hour beside the held ones and is cancelled after, so every run finds the same bookings held.

/** The counts of future bookings a resource holds. */
export const HELD = [1, 500] as const;

/** A booking body on 2031-01-01 at hour:minute UTC, half an hour long, on `resource`. */
export const benchSlot = (resource: string, hour: number, minute = 0) => ({
  customer: { phone: '+4915100000500' },
  service: 'Bench',
  resource_id: resource,
  timezone: 'UTC',
  start_at: new Date(Date.UTC(2031, 0, 1, hour, minute)).toISOString(),
  end_at: new Date(Date.UTC(2031, 0, 1, hour, minute + 30)).toISOString(),
});

/** Books each held count's bookings on the resource `${prefix}-${held}` (hours 0, 1, …). */
export async function holdFutureBookings(tenantId: string, prefix: string): Promise<void> {
  const { createBooking } = await import('../functions/bookings/service');
  for (const held of HELD)
    for (let h = 0; h < held; h++) await createBooking(tenantId, benchSlot(`${prefix}-${held}`, h), new Date());
}

/** Cancels a measured booking, as an API key would. */
export async function cancelBenchBooking(tenantId: string, bookingId: string): Promise<void> {
  const { cancelBooking } = await import('../functions/bookings/service');
  await cancelBooking(tenantId, bookingId, undefined, { type: 'api_key', id: 'bench' }, undefined, new Date());
}
