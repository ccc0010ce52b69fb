import type { ConditionalRequestOptions, RequestOptions } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource, path } from '../core/resource.js';
import type { CreateScheduleParams, ListSchedulesParams, Schedule, UpdateScheduleParams } from '../types.js';

/**
 * Resources' opening hours, one schedule per `resource_id`. Once a resource has one, an active booking of
 * it must lie wholly within its hours (`ValidationError`, `outside_opening_hours`) and availability counts
 * the rest as `closed`; a resource without one is open at all times.
 */
export class Schedules extends ApiResource {
  /** A to Z by resource. */
  list(params?: ListSchedulesParams, options?: RequestOptions): PagedList<Schedule> {
    return this.pagedList('/schedules', params, options);
  }

  /**
   * Sets a resource's opening hours: `weekly_hours` (`mon` to `sun`; a day left out is closed) and
   * `date_overrides`, as wall-clock times in `timezone`; `buffer_before_minutes` / `buffer_after_minutes`
   * (0 to 120) keep the resource free around each booking made from then on. Admins only; a resource that
   * has a schedule already throws ConflictError (`schedule_exists`).
   */
  create(params: CreateScheduleParams, options?: RequestOptions): Promise<Schedule> {
    return this.call('POST', '/schedules', { body: params, options });
  }

  /** The resource's schedule; NotFoundError when it has none (it is open at all times). */
  get(resourceId: string, options?: RequestOptions): Promise<Schedule> {
    return this.call('GET', path`/schedules/${resourceId}`, { options });
  }

  /**
   * Changes what is sent: `timezone`, each weekday in `weekly_hours` (the others keep their hours; `[]`
   * closes one), `date_overrides` as the whole list, the buffers. Bookings already made keep their time and
   * their buffers. `ifMatch: schedule.version` refuses a change made meanwhile.
   */
  update(resourceId: string, changes: UpdateScheduleParams, options?: ConditionalRequestOptions): Promise<Schedule> {
    return this.call('PATCH', path`/schedules/${resourceId}`, { body: changes, options });
  }

  /** Removes the schedule: the resource is open at all times again. `ifMatch`: only that version. */
  async delete(resourceId: string, options?: ConditionalRequestOptions): Promise<void> {
    await this.call<undefined>('DELETE', path`/schedules/${resourceId}`, { options });
  }
}
