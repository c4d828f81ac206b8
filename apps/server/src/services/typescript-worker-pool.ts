import Piscina from 'piscina';

/**
 * A piscina pool of worker threads that run a TypeScript module through tsx's loader, whether the
 * process itself was started by the tsx CLI (npm start), by `node --import tsx` or by a test runner
 * with its own transform. Workers never idle out; `eager` starts all of them now rather than at the
 * first task.
 */
export function typescriptWorkerPool(
  module: URL,
  { workerData, threads, eager }: { workerData: unknown; threads: number; eager: boolean },
) {
  return new Piscina({
    filename: module.href,
    execArgv: ['--import', import.meta.resolve('tsx')],
    workerData,
    minThreads: eager ? threads : 0,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
  });
}
