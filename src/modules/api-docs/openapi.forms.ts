import { object, type Schema } from '../../shared/http/openapi-schema.js';

export const formSchemas: Record<string, Schema> = {
  RequestForm: object({
    url: { type: 'string', format: 'uri', description: 'The workflow\'s secret form URL, `<PUBLIC_BASE_URL>/forms/<secret>`: a page for people, drawn from the attributes; whoever knows it can open cases.' },
  }),
};
