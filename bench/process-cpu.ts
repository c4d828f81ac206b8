import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks a second of /proc's utime and stime: USER_HZ, 100 on every Linux Node supports. */
const TICKS_PER_SECOND = 100;

interface Stat {
  ppid: number;
  ticks: number;
}

/**
 * utime + stime and the parent of one /proc stat file (a process's, every thread included, or one
 * thread's under /proc/<pid>/task); undefined once it is gone.
 */
function stat(file: string): Stat | undefined {
  try {
    const line = readFileSync(file, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it start at the last ')'.
    const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

const ticksToMs = (ticks: number) => (ticks / TICKS_PER_SECOND) * 1000;

/**
 * CPU milliseconds that `root` and every process below it have spent so far, all their threads
 * included: a server started under tsx runs as a grandchild of the process the bench spawned, and
 * its verifier and derivation workers are threads of that one.
 */
export function processTreeCpuMs(root: number): number {
  const stats = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const found = stat(`/proc/${name}/stat`);
    if (found) stats.set(Number(name), found);
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = stats.get(at)?.ppid) if (at === root) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, { ticks: own }] of stats) if (inTree(pid)) ticks += own;
  return ticksToMs(ticks);
}

/** CPU milliseconds each thread of process `pid` has spent so far, by thread id. */
export function threadCpuMs(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`).map(Number)) {
    const found = stat(`/proc/${pid}/task/${tid}/stat`);
    if (found) threads.set(tid, ticksToMs(found.ticks));
  }
  return threads;
}

/** CPU milliseconds this process has spent, its worker threads included. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
