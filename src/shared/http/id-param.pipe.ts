import { Injectable, type PipeTransform } from '@nestjs/common';
import { NotFoundError } from '../errors/app-error.js';

/**
 * Path ids are positive integers; anything else (text, zero, beyond 2^53) cannot name a
 * resource, so it is answered as not found rather than as a malformed request.
 */
@Injectable()
export class IdParamPipe implements PipeTransform<string, number> {
  /** `max`: the largest id the resource's column can hold, when it is narrower than 2^53. */
  constructor(private readonly resource: string, private readonly max = Number.MAX_SAFE_INTEGER) {}

  transform(value: string): number {
    const id = /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id) || id > this.max) throw new NotFoundError(this.resource);
    return id;
  }
}
