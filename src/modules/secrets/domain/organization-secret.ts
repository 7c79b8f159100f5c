/** A named secret of an organization, as its admins see it: never its value. */
export interface OrganizationSecret {
  name: string;
  createdAt: Date;
  updatedAt: Date;
}
