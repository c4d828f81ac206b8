/**
 * The address of a request as a log line may show it. Path parameters carry session ids (a bearer
 * secret: whoever has one can watch that verification) and DIDs (a person's identifier), and query
 * strings carry `?session=…`, so logs show the route's pattern (`/sessions/:id/events`) and never a
 * query. A request that matched no route keeps only its first path segment, as anything after it may
 * be one of those values in the wrong place.
 */
export function redactUrl(url: string, routePattern: string | undefined): string {
  const queryAt = url.indexOf('?');
  const query = queryAt === -1 ? '' : '?[redacted]';
  if (routePattern) return routePattern + query;
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const first = /^\/?[^/]*/.exec(path)![0];
  return first + (path.length > first.length ? '/[redacted]' : '') + query;
}
