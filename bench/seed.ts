import { parseArgs } from 'node:util';
import path from 'node:path';
import { openStorage } from './server.ts';
import { randomIdentities, SeedTree, seedIdentities } from './seed-identities.ts';

/**
 * `npm run seed -- --count 100000 [--data-dir ./data | --database-url postgres://…]`: fills a
 * database with random identities for scale measurements. Never point it at a real registry.
 */
const { values } = parseArgs({
  options: { count: { type: 'string', default: '1000' }, 'data-dir': { type: 'string' }, 'database-url': { type: 'string' } },
});
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a positive integer');
const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
const dataDir = path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');

const storage = await openStorage({ databaseUrl, dataDir });
const existing = await storage.identities.count();
const group = new SeedTree();
group.add(await storage.identities.commitmentsFrom(0, Number.MAX_SAFE_INTEGER));
console.log(
  `Seeding ${count} random identities (random field elements as commitments, not derived from anyone) after ${existing} existing…`,
);
const started = performance.now();
await seedIdentities(storage, group, randomIdentities(count));
console.log(`Done: ${group.size} identities, root ${group.tree.root}, in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
await storage.close();
