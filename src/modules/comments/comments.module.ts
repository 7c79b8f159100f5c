import { Global, Module } from '@nestjs/common';
import { RelayMailer } from '../../shared/mail/relay-mailer.js';
import { CaseNotifications } from '../cases/application/case-notifications.js';
import { CasesModule } from '../cases/cases.module.js';
import { CaseStatementParts } from '../cases/domain/case-statement-parts.js';
import { EmailModule } from '../email/email.module.js';
import { PeopleModule } from '../people/people.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { CaseMailSender } from './application/case-mail-sender.service.js';
import { CaseWatchingService } from './application/case-watching.service.js';
import { CaseMailOutbox, CommentStore, NotificationStore, WatcherStore } from './application/comment-ports.js';
import { CommentsService } from './application/comments.service.js';
import { CommentTexts } from './application/comment-texts.js';
import { NotificationPreferencesService } from './application/notification-preferences.service.js';
import { UnsubscribeLinks } from './application/unsubscribe-links.js';
import { CommentsController } from './http/comments.controller.js';
import { NotificationPreferencesController } from './http/notification-preferences.controller.js';
import { UnsubscribePagesController } from './http/unsubscribe-pages.controller.js';
import { CaseMailWorker } from './infrastructure/case-mail-worker.js';
import { commentsStatementPart } from './infrastructure/comments-statement-part.js';
import { PostgresCaseMailOutbox } from './infrastructure/postgres-case-mail-outbox.js';
import { PostgresCommentStore } from './infrastructure/postgres-comment-store.js';
import { PostgresNotificationStore } from './infrastructure/postgres-notification-store.js';
import { PostgresWatcherStore } from './infrastructure/postgres-watcher-store.js';
import { WatchersSql } from './infrastructure/watchers-sql.js';

/**
 * Working a case together (casework.md sections 3 and 4): comments and public replies by mail,
 * watchers, notification mails and their preferences. Global for its exports: CaseNotifications,
 * which the modules that assign cases, watch SLAs or take replies call, and CommentTexts, which
 * the search indexer reads; its
 * worker part (CaseMailWorker) sends the queued mails in worker roles only.
 */
@Global()
@Module({
  imports: [CasesModule, WorkflowsModule, EmailModule, PeopleModule],
  controllers: [CommentsController, NotificationPreferencesController, UnsubscribePagesController],
  providers: [
    CommentsService,
    CommentTexts,
    CaseWatchingService,
    { provide: CaseNotifications, useExisting: CaseWatchingService },
    NotificationPreferencesService,
    UnsubscribeLinks,
    RelayMailer,
    CaseMailSender,
    CaseMailWorker,
    WatchersSql,
    { provide: CommentStore, useClass: PostgresCommentStore },
    { provide: WatcherStore, useClass: PostgresWatcherStore },
    { provide: NotificationStore, useClass: PostgresNotificationStore },
    { provide: CaseMailOutbox, useClass: PostgresCaseMailOutbox },
  ],
  exports: [CaseNotifications, CommentTexts],
})
export class CommentsModule {
  constructor(parts: CaseStatementParts) {
    parts.add(commentsStatementPart);
  }
}
