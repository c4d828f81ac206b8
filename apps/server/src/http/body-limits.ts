/** Every JSON body stays within a few KiB (decision 002)… */
export const BODY_LIMIT = 8 * 1024;
/** …except the raw bodies, which carry two text fields of up to `MAX_INPUT_BYTES` (16 KiB), JSON-escaped. */
export const RAW_BODY_LIMIT = 64 * 1024;
