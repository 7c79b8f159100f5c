/** DNS as the people module asks it: bound to the module's infrastructure. */
export abstract class DomainRecords {
  /**
   * The TXT records at `name`, each as its strings; none when the name or its records do not
   * exist. Rejects when DNS could not answer (a timeout, a refusal).
   */
  abstract txt(name: string): Promise<string[][]>;
}
