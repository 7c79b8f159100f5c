import { proofParameter } from '../../../shared/http/authenticated-requests.js';
import type { Principal as PrincipalType } from '../domain/principal.js';

/** `@Principal()`: the caller the route's bearer token or session proved (a TokenPrincipal on routes of `@RequiresToken`); a route without one gets a 401, never an undefined principal. */
export const Principal = proofParameter<PrincipalType>('bearer', 'admin');
