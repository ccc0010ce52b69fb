import type { ConditionalRequestOptions, RequestOptions } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource, path } from '../core/resource.js';
import type {
  Availability,
  AvailabilityParams,
  Booking,
  CancelBookingParams,
  CreateBookingParams,
  ListBookingsParams,
  Message,
  NotifyBookingParams,
  UpdateBookingParams,
} from '../types.js';

export class Bookings extends ApiResource {
  /** Bookings, newest first; filter by `status`, `customer_id`, `from`, `to`. */
  list(params?: ListBookingsParams, options?: RequestOptions): PagedList<Booking> {
    return this.pagedList('/bookings', params, options);
  }

  /**
   * A resource's busy, closed (outside its opening hours, see `schedules`) and free time between `from` and
   * `to`; with `duration_minutes`, the slots still free.
   */
  availability(params: AvailabilityParams, options?: RequestOptions): Promise<Availability> {
    return this.call('GET', '/bookings/availability', { query: { ...params }, options });
  }

  get(id: string, options?: RequestOptions): Promise<Booking> {
    return this.call('GET', path`/bookings/${id}`, { options });
  }

  /**
   * Books a slot. Overlapping an active booking of the same `resource_id` is a `ConflictError`
   * (`booking_conflict`); outside the resource's opening hours, a `ValidationError` (`outside_opening_hours`).
   */
  create(params: CreateBookingParams, options?: RequestOptions): Promise<Booking> {
    return this.call('POST', '/bookings', { body: params, options });
  }

  /** Changes details, reschedules (`start_at`/`end_at`) or moves the status. */
  update(id: string, changes: UpdateBookingParams, options?: ConditionalRequestOptions): Promise<Booking> {
    return this.call('PATCH', path`/bookings/${id}`, { body: changes, options });
  }

  /**
   * Tells the booking's customer where it stands (confirmed, moved, requested or cancelled), as a message in
   * the booking's conversation (else the customer's most recently active one): the queued `Message`. A
   * customer without any conversation (`booking_without_conversation`) or a booking that is over
   * (`nothing_to_notify`) is a `ValidationError`.
   */
  notify(id: string, params?: NotifyBookingParams, options?: RequestOptions): Promise<Message> {
    return this.call('POST', path`/bookings/${id}/notify`, { query: { ...params }, options });
  }

  /** Cancels (the record stays). Cancelling twice is harmless. */
  cancel(id: string, params?: CancelBookingParams, options?: ConditionalRequestOptions): Promise<Booking> {
    return this.call('DELETE', path`/bookings/${id}`, { query: { ...params }, options });
  }
}
