/**
 * The names of organizations, which the sign-in pages show. The organizations module owns that
 * table and binds this port (it depends on this module, so this module cannot import it).
 */
export abstract class OrganizationNames {
  /** The names of the organizations with these ids, by id (unknown ids are absent). */
  abstract names(ids: readonly number[]): Promise<Map<number, string>>;
}
