import { proofParameter } from '../../../shared/http/authenticated-requests.js';
import type { Principal as PrincipalType } from '../domain/principal.js';

/** `@Principal()`: the caller the route's bearer token proved; a route without one gets a 401, never an undefined principal. */
export const Principal = proofParameter<PrincipalType>('bearer');
