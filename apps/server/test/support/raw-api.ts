import { postJson, type Target } from './post.ts';

/**
 * The specification's raw calls against a running server, each reduced to what a test asserts:
 * the registration's reply, the verification's and the erasure's verdict (or `status CODE` for a
 * refusal), a DID's resolution status, and a fresh challenge. `server` is read at each call, so it
 * may name a server that a `beforeAll` has yet to start.
 */
export function rawApi(server: () => Target) {
  const url = () => {
    const target = server();
    return typeof target === 'string' ? target : target.url;
  };
  return {
    register: async (person: object) => (await postJson(server(), '/register', person)).body,
    verify: async (person: { bio_info: string }) =>
      (await postJson(server(), '/verify', { bio_info: person.bio_info })).body['Verification Result'],
    erase: async (body: object) => {
      const { status, body: reply } = await postJson(server(), '/erase', body);
      return status === 200 ? reply['Erasure Result'] : `${status} ${reply.error?.code}`;
    },
    resolves: async (did: string) => (await fetch(`${url()}/did/${did}`)).status,
    challenge: async () => (await postJson<{ challenge: string }>(server(), '/challenge', {})).body.challenge,
  };
}
