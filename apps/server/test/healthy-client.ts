import { request, Agent } from 'node:http';

/**
 * A healthy client beside an attack: sequential requests on its own keep-alive connection, from its
 * own loopback address (127.0.0.2) so per-client limits aimed at the attacker (127.0.0.1) do not
 * touch it. Returns the p95 latency in milliseconds.
 */
export async function healthyP95(url: string, { path = '/healthz', requests = 200 } = {}): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < requests; i++) {
      const started = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${url}${path}`, { agent, localAddress: '127.0.0.2' }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
      if (status !== 200) throw new Error(`healthy client got ${status} from ${path}`);
      times.push(performance.now() - started);
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return times[Math.ceil(times.length * 0.95) - 1]!;
}

/** Resident memory of a process, from /proc (Linux), in MB. */
export async function residentMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}
