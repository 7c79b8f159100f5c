/** Says whether one kind of the work users wait for is behind or pressed. */
export type BacklogProbe = () => Promise<boolean>;

/**
 * Whether the work people and programs wait for (automation runs, intake) is behind or pressed,
 * which background upkeep (the search index) gives way to. A module with such work registers a
 * probe in worker roles; a probe that fails (Redis unavailable) counts as not behind.
 */
export class ForegroundWork {
  private readonly probes: BacklogProbe[] = [];

  register(probe: BacklogProbe): void {
    this.probes.push(probe);
  }

  async behind(): Promise<boolean> {
    for (const probe of this.probes) {
      if (await probe().catch(() => false)) return true;
    }
    return false;
  }
}
