import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from '../server-process.ts';

export interface FaultProxy {
  /** The port to give the server instead of the database's. */
  port: number;
  /** Accepts connections again and relays them to the target. */
  up(): Promise<void>;
  /** Resets every relayed connection and refuses new ones: the database is gone, as far as a client can tell. */
  down(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of a database that a test can cut and restore, for faults that a real
 * outage or network partition produces (connection resets, refused connections) without stopping
 * the database itself. Starts down.
 */
export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };

  const down = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.resetAndDestroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };

  return {
    port,
    async up() {
      if (server) return;
      const listening = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        track(client);
        track(upstream);
        client.pipe(upstream);
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(port, '127.0.0.1', () => resolve());
      });
      server = listening;
    },
    down,
    close: down,
  };
}
