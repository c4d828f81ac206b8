import type { NewIdentity, Storage } from '../../src/storage/types.ts';

/**
 * Every identity a registration hands to storage (`identities.register`, and the v3 side of
 * `moveFromV2`), recorded in order and then written as usual to the real database: what the
 * registration use case passed on, such as a credential's leaf (decision 086), whichever table keeps it.
 */
export function recordRegistrations(storage: Storage): NewIdentity[] {
  const recorded: NewIdentity[] = [];
  const identities = storage.identities;
  const register = identities.register.bind(identities);
  const moveFromV2 = identities.moveFromV2.bind(identities);
  identities.register = (identity) => {
    recorded.push(identity);
    return register(identity);
  };
  identities.moveFromV2 = (move) => {
    recorded.push(move.to);
    return moveFromV2(move);
  };
  return recorded;
}
