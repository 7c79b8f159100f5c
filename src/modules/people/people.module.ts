import { Module } from '@nestjs/common';
import { RelayMailer } from '../../shared/mail/relay-mailer.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { PeoplePurges } from './application/people-purges.js';
import { PeopleStore } from './application/people-store.js';
import { SessionsService } from './application/sessions.service.js';
import { SignInLinksService } from './application/sign-in-links.service.js';
import { SignInRequestLimits } from './application/sign-in-request-limits.js';
import { OpenIdProviders } from './application/openid-providers.js';
import { SsoConfigurationsService } from './application/sso-configurations.service.js';
import { SsoSignInService } from './application/sso-sign-in.service.js';
import { DomainRecords } from './application/domain-records.js';
import { SsoStore } from './application/sso-store.js';
import { UsersService } from './application/users.service.js';
import { AdminCallerCheck } from './http/admin-caller.check.js';
import { AuthController } from './http/auth.controller.js';
import { MeController } from './http/me.controller.js';
import { SignInPagesController } from './http/sign-in-pages.controller.js';
import { SsoPagesController } from './http/sso-pages.controller.js';
import { OperatorSsoController, SsoController } from './http/sso.controller.js';
import { UsersController } from './http/users.controller.js';
import { PostgresPeoplePurges } from './infrastructure/postgres-people-purges.js';
import { PostgresPeopleStore } from './infrastructure/postgres-people-store.js';
import { DnsDomainRecords } from './infrastructure/dns-domain-records.js';
import { PostgresSsoStore } from './infrastructure/postgres-sso-store.js';

/** An organization's people: users and roles, sessions, sign-in by email link or single sign-on, and the check of every admin route. */
@Module({
  imports: [TokensModule],
  controllers: [UsersController, MeController, AuthController, SignInPagesController, SsoController, OperatorSsoController, SsoPagesController],
  providers: [
    UsersService,
    SessionsService,
    SignInLinksService,
    SignInRequestLimits,
    SsoConfigurationsService,
    SsoSignInService,
    OpenIdProviders,
    RelayMailer,
    AdminCallerCheck,
    { provide: PeopleStore, useClass: PostgresPeopleStore },
    { provide: SsoStore, useClass: PostgresSsoStore },
    { provide: DomainRecords, useClass: DnsDomainRecords },
    { provide: PeoplePurges, useClass: PostgresPeoplePurges },
  ],
  exports: [UsersService, SessionsService, SignInLinksService, AdminCallerCheck, SsoConfigurationsService],
})
export class PeopleModule {}
