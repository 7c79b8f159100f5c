import { builtInCaseSource } from '../../cases/application/built-in-case-sources.js';

/** Cases created by the hosted request form of `ticketing` workflows. */
export const FormCaseSource = builtInCaseSource('Form', 'ticketing');
