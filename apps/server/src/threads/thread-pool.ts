import Piscina from 'piscina';

/**
 * A piscina pool of worker threads running `entry` (see `threadEntry`). A TypeScript entry runs
 * through tsx's loader, whether the process itself was started by the tsx CLI, by
 * `node --import tsx` or by a test runner with its own transform; a compiled entry runs as it is,
 * so the production server loads no development loader. Workers never idle out; `eager` starts all
 * of them now rather than at the first task.
 *
 * `stricterFIFO`: by default piscina puts a task it could not hand out at once back at the tail of
 * its queue, so under sustained load some requests waited half a second behind hundreds of later
 * ones (docs/benchmarks.md, "Thread-pool order"). In strict order the wait
 * is bounded by the work ahead.
 *
 * `concurrentTasksPerWorker` (default 1) is for tasks that mostly wait, as the threshold raw path's
 * calls to the OPRF nodes do: each thread runs many of them at once. Such a pool must also set
 * `idleLoop`: by default an idle piscina worker waits for its next task in `Atomics.wait`, which
 * blocks its event loop, so timers and sockets left running by a finished task (a call to a hanging
 * node, due to be aborted at OPRF_NODE_TIMEOUT_MS) only ran when the next task came: 50 of 50 sockets
 * to a hanging node were still open at 3× the timeout (decision 033). With `idleLoop` the worker
 * waits on its message port instead, and its event loop keeps turning.
 */
export function threadPool(
  entry: URL,
  {
    workerData,
    threads,
    eager,
    concurrentTasksPerWorker = 1,
    idleLoop = false,
  }: { workerData: unknown; threads: number; eager: boolean; concurrentTasksPerWorker?: number; idleLoop?: boolean },
) {
  return new Piscina({
    filename: entry.href,
    ...(entry.pathname.endsWith('.ts') ? { execArgv: ['--import', import.meta.resolve('tsx')] } : {}),
    workerData,
    minThreads: eager ? threads : 0,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    stricterFIFO: true,
    concurrentTasksPerWorker,
    ...(idleLoop ? { atomics: 'disabled' as const } : {}),
  });
}
