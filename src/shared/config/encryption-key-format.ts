/** 32 bytes as 64 hex characters or base64, the form of TOKEN_ENCRYPTION_KEY and each of TOKEN_ENCRYPTION_OLD_KEYS. */
export const ENCRYPTION_KEY_PATTERN = '([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)';
