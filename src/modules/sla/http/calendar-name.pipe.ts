import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { CALENDAR_NAME } from '../domain/business-calendar.js';

/**
 * A calendar name in the path. Creating one under a malformed name is a 422; any other use of a
 * malformed name names nothing, so it is a 404 (as malformed ids are).
 */
@Injectable()
export class CalendarNamePipe implements PipeTransform<string, string> {
  constructor(private readonly creating: boolean) {}

  transform(value: string): string {
    if (CALENDAR_NAME.test(value)) return value;
    if (this.creating) throw new InvalidRequestError('invalid calendar name: it must be 1 to 64 of A-Z, a-z, 0-9, space, _ and -');
    throw new NotFoundError('calendar');
  }
}
