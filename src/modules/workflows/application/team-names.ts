/** The organization's team names, as a definition's `assign` steps name them; bound by the teams module. */
export abstract class TeamNames {
  /** Which of `names` are no team of the organization (names compare whatever the case of their letters). */
  abstract missing(organizationId: number, names: readonly string[]): Promise<string[]>;
}
