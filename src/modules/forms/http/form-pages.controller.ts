import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UnsupportedMediaTypeError } from '../../../shared/http/json-body-parser.js';
import { setSecurityHeaders } from '../../../shared/http/security-headers.js';
import type { FormTarget } from '../application/request-forms.service.js';
import { SubmitFormService } from '../application/submit-form.service.js';
import type { PostedForm } from '../domain/form-submission.js';
import { requestForm } from '../domain/request-form.js';
import { PAGE_CSP, sendPage } from '../../../shared/http/html-page.js';
import { errorPage, formPage, receivedPage, sendErrorPage } from './form-page.js';
import { FormWorkflow, RequiresFormSecret } from './form-secret.check.js';

const CASE_ID = /^[1-9][0-9]{0,17}$/;

/**
 * The hosted request form of ticketing workflows: pages for people, not API operations (they are
 * not in the OpenAPI document, like the dashboard). The secret in the URL is the one credential:
 * it says which workflow, and is looked up before any body is read (FormSecretCheck); the
 * per-address and per-form rate limits hold. Every answer is an HTML page, errors included; no
 * cookie or session is ever set, so there is nothing for a forged post to ride on.
 */
@Controller('forms')
@ApiExcludeController()
@RequiresFormSecret()
export class FormPagesController {
  constructor(private readonly submissions: SubmitFormService) {}

  @Get(':secret')
  @RouteConfig({ errorPage: sendErrorPage })
  async show(@FormWorkflow() target: FormTarget, @Res() reply: FastifyReply) {
    return sendPage(reply, 200, formPage(requestForm(target.version.definition)));
  }

  /**
   * Valid: the case is created and the browser is sent on (303) to a page with its id, so that
   * reloading that page posts nothing again. Invalid: 422 and the form as posted, with its errors.
   */
  @Post(':secret')
  @RouteConfig({ formBody: true, errorPage: sendErrorPage })
  async submit(@Param('secret') secret: string, @FormWorkflow() target: FormTarget, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (request.body !== undefined && !(request.body instanceof Map)) throw new UnsupportedMediaTypeError();
    const posted: PostedForm = (request.body as PostedForm | undefined) ?? new Map();
    const outcome = await this.submissions.submit(target, posted);
    if (outcome.kind === 'invalid') return sendPage(reply, 422, formPage(requestForm(target.version.definition), posted, outcome.errors));
    // Relative to /forms/<secret>, so it holds behind a proxy that serves the service under a path.
    const location = outcome.kind === 'created' ? `${secret}/received/${outcome.caseId}` : `${secret}/received`;
    setSecurityHeaders(reply, PAGE_CSP);
    return reply.status(303).header('cache-control', 'no-store').header('location', location).send();
  }

  /** The page after a post caught by the honeypot: received, as a robot expects, with no case id. */
  @Get(':secret/received')
  @RouteConfig({ errorPage: sendErrorPage })
  async receivedWithoutCase(@Param('secret') secret: string, @FormWorkflow() target: FormTarget, @Res() reply: FastifyReply) {
    return sendPage(reply, 200, receivedPage(target.version.name, null, `../${secret}`));
  }

  /**
   * Shows the case id of its own URL and reads nothing about the case: whoever holds the form URL
   * can type any id here and learn nothing but that number back. A rotated form's pages are 404.
   */
  @Get(':secret/received/:caseId')
  @RouteConfig({ errorPage: sendErrorPage })
  async received(@Param('secret') secret: string, @Param('caseId') caseId: string, @FormWorkflow() target: FormTarget, @Res() reply: FastifyReply) {
    if (!CASE_ID.test(caseId)) return sendPage(reply, 404, errorPage(404));
    return sendPage(reply, 200, receivedPage(target.version.name, caseId, `../../${secret}`));
  }
}
