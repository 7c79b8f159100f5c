export const SSO_DOMAIN_CHECKS_QUEUE = 'sso-domain-checks';
export const SSO_DOMAIN_CHECK_JOB = 'check';
