/**
 * The extension API's version (semver). A change that can break an extension written against
 * an earlier version (a removed or renamed export, a narrower type) bumps the major version;
 * an addition bumps the minor.
 */
export const EXTENSION_API_VERSION = '1.0.0';
