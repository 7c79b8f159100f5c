export const RETENTION_QUEUE = 'retention';
export const PURGE_JOB = 'purge';
