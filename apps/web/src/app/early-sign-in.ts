import { startSignIn } from '../features/sign-in/sign-in-details.ts';

/**
 * Sign in with ZeroID (decision 066): a second, small entry that index.html runs before the app's.
 * On `/signin/:uid` it asks for the sign-in's details and starts the prover worker at once, while
 * the browser still compiles and evaluates the app's own code (React, the router), which the route's
 * loader waits for. The loader asks again and gets the same answer and the same worker. On every
 * other address it does nothing.
 */
const uid = /^\/signin\/([A-Za-z0-9_-]{1,64})$/.exec(location.pathname)?.[1];
if (uid) startSignIn(uid);
