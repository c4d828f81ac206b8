/** Every JSON body stays within a few KiB (decision 002)… */
export const BODY_LIMIT = 8 * 1024;
/** …except the raw legacy bodies, which carry two 16 KiB text fields, JSON-escaped. */
export const RAW_BODY_LIMIT = 64 * 1024;
