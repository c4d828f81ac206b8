// A client-caused failure is decided in the services and turned into a reply by the HTTP layer;
// the class lives in `services/` so that services never import `http/`.
export { Problem, badRequest, unavailable } from '../problem.ts';
