import { Entity } from 'typeorm';
import { ChannelSecretColumns } from '../../../shared/database/channel-secret-columns.js';

/** A workflow's inbound address; its secret is the address's local part. */
@Entity('workflow_email_addresses')
export class WorkflowEmailAddressOrmEntity extends ChannelSecretColumns {}
