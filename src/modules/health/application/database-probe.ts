/** The readiness check's question to the database, answered by the module's infrastructure. */
export abstract class DatabaseProbe {
  /** Resolves once the database answered a trivial query; rejects when it cannot. */
  abstract ping(): Promise<void>;
}
