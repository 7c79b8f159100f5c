import { Injectable } from '@nestjs/common';
import { type CreateCaseCommand, CreateCaseService } from '../../cases/application/create-case.service.js';
import { AttributesInvalidError } from '../../cases/domain/case.errors.js';
import type { ValidationProblem } from '../../../shared/errors/app-error.js';
import { type FieldError, fieldErrors, type PostedForm, readSubmission } from '../domain/form-submission.js';
import { type RequestForm, requestForm } from '../domain/request-form.js';
import type { FormTarget } from './request-forms.service.js';

export type FormOutcome = { kind: 'created'; caseId: number } | { kind: 'invalid'; errors: FieldError[] } | { kind: 'spam' };

/**
 * A posted request form: its values converted to their declared types, then one live case
 * created through CreateCaseService, which checks the attributes as for every other source.
 * Nothing is created for an invalid form, nor for one whose honeypot was filled in.
 */
@Injectable()
export class SubmitFormService {
  constructor(private readonly createCase: CreateCaseService) {}

  async submit(target: FormTarget, posted: PostedForm): Promise<FormOutcome> {
    const form = requestForm(target.version.definition);
    const submission = readSubmission(form, posted);
    if (submission.kind === 'spam') return submission;
    if (submission.kind === 'invalid') return { kind: 'invalid', errors: [...submission.errors, ...this.schemaErrors(target, form, submission.attributes, submission.errors)] };
    try {
      const { id } = await this.createCase.execute({
        source: 'Form',
        organizationId: target.organizationId,
        workflow: target.version,
        subject: submission.subject,
        mode: 'live',
        attributes: submission.attributes,
        actor: { kind: 'form' },
        answer: 'id',
      });
      return { kind: 'created', caseId: id };
    } catch (err) {
      if (err instanceof AttributesInvalidError) return { kind: 'invalid', errors: fieldErrors(form, err.details.validation_errors as ValidationProblem[]) };
      throw err;
    }
  }

  /**
   * The schema's problems with the fields that could be read, so that a person sees every error
   * at once (a bad email address along with an unreadable number). Problems about no one field
   * (a required attribute missing) are left out: each is already an error at its own field.
   */
  private schemaErrors(target: FormTarget, form: RequestForm, attributes: CreateCaseCommand<'id'>['attributes'], known: readonly FieldError[]): FieldError[] {
    try {
      this.createCase.check({ workflow: target.version, attributes });
      return [];
    } catch (err) {
      if (!(err instanceof AttributesInvalidError)) throw err;
      const problems = fieldErrors(form, err.details.validation_errors as ValidationProblem[]);
      return problems.filter((problem) => problem.control !== null && !known.some((error) => error.control === problem.control));
    }
  }
}
