/** A tenant: every other record belongs to one. */
export interface Organization {
  id: number;
  name: string;
  createdAt: Date;
}
