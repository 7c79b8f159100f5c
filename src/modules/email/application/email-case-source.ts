import { builtInCaseSource } from '../../cases/application/built-in-case-sources.js';

/** Cases created by mail to the inbound address of `email` workflows. */
export const EmailCaseSource = builtInCaseSource('Email', 'email');
