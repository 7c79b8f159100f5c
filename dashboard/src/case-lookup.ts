import { api, ApiError, type Case } from './api.ts';

/** One case of the organization (GET /api/admin/v1/cases/{id}); null when there is none. */
export async function findCase(id: number): Promise<Case | null> {
  try {
    return (await api.get<{ case: Case }>(`/cases/${id}`)).case;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
