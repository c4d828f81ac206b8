/**
 * Whether a URL names the loopback interface (127.0.0.0/8, ::1, localhost), which a phone resolves
 * to itself: a QR code holding such a link cannot work on another device.
 */
export function isLoopbackLink(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
