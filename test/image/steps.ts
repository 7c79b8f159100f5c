/** The steps of `npm run test:image`, each printed as it ends with what it found and how long it took. */
export interface StepResult {
  name: string;
  ms: number;
  ok: boolean;
  detail: string;
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export class Steps {
  readonly results: StepResult[] = [];

  /** Runs `fn`, whose answer says what it found; a failure is recorded, then thrown on. */
  async run(name: string, fn: () => Promise<string>): Promise<void> {
    const started = performance.now();
    console.log(`▶ ${name}`);
    try {
      const detail = await fn();
      this.record({ name, ms: performance.now() - started, ok: true, detail });
    } catch (err) {
      this.record({ name, ms: performance.now() - started, ok: false, detail: err instanceof Error ? err.message.split('\n')[0]! : String(err) });
      throw err;
    }
  }

  /** The table of every step run, with their total. */
  summary(): string {
    const width = Math.max(...this.results.map((r) => r.name.length), 5);
    const rows = this.results.map((r) => `${r.ok ? '✔' : '✖'} ${r.name.padEnd(width)} ${seconds(r.ms).padStart(8)}  ${r.detail}`);
    const total = this.results.reduce((sum, r) => sum + r.ms, 0);
    return [...rows, `  ${'total'.padEnd(width)} ${seconds(total).padStart(8)}`].join('\n');
  }

  private record(result: StepResult): void {
    this.results.push(result);
    console.log(`${result.ok ? '✔' : '✖'} ${result.name} (${seconds(result.ms)}): ${result.detail}`);
  }
}
