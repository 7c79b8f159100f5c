import { Entity } from 'typeorm';
import { ChannelSecretColumns } from '../../../shared/database/channel-secret-columns.js';

/** A ticketing workflow's form URL; its secret is the URL's last segment. */
@Entity('workflow_forms')
export class WorkflowFormOrmEntity extends ChannelSecretColumns {}
