// The example site's pages: plain HTML with one stylesheet (public/style.css). Nothing in them is
// needed to sign in with ZeroID; they only make the states a developer meets readable.

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A whole page around `body`. */
export const page = (body) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Example site · Sign in with ZeroID</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<header class="bar"><a href="/" class="brand">Example site</a><span class="tag">a relying party of ZeroID</span></header>
<main class="card">${body}</main>
<footer class="foot">This site learns from ZeroID a pseudonym and, only when it asks, which organisation vouches for your ID: never your ID, your credential, your biometric or your DID.</footer>
</body>
</html>`;

/** The home page: the sign-in button, or what is wrong with the setup and how to fix it. */
export function homePage(setup, zeroidUrl) {
  if (setup.ok) {
    return page(`<h1>Welcome</h1>
<p>Sign in with your ZeroID identity. You will prove it is you with your biometric, on ZeroID's own screen.</p>
<p><a id="sign-in" class="button" href="/login">Sign in with ZeroID</a></p>
<p><a id="sign-in-credential" class="button secondary" href="/login?ask=credential">Sign in and show who vouches for my ID</a></p>
<p class="hint">The second asks ZeroID which organisation vouches for your ID (the scope <code>credential</code>): if your ID was registered with a credential and you agree on ZeroID's screen, this site learns its issuer's name, and nothing else about it.</p>
<p class="hint">No identity yet? <a href="${escape(zeroidUrl)}/register">Register one at ZeroID</a> first.</p>`);
  }
  return page(`<h1>Not ready to sign in</h1>${problem(setup.problem)}`);
}

/** What the site learnt of the person's credential, when it asked. */
function credentialLine(credential) {
  if (!credential?.asked) return '';
  if (!credential.name) return '<p id="credential">No credential was shared: ZeroID vouches only for your pseudonym.</p>';
  return `<p id="credential">Credential from ${escape(credential.name)}</p>
<p class="hint">The organisation whose public key is <code>${escape(credential.issuer)}</code> vouches for your ID. This site does not learn your ID or your credential.</p>`;
}

/** The home page while signed in (the site's session remembers the person): who signed in, and their credential's issuer if asked. */
export const signedInPage = (sub, credential) =>
  page(`<h1>Signed in</h1>
<p id="signed-in">Signed in as ${escape(sub)}</p>${credentialLine(credential)}
<p class="hint">This is your pseudonym at this site: the same every time you sign in here, and unknown to every other site. This site remembers you until you sign out.</p>
<p><a class="button secondary" href="/">Home</a> <a class="button secondary" href="/logout">Sign out</a></p>`);

/** After RP-initiated logout came back: signed out here and at ZeroID. */
export const signedOutPage = () =>
  page(`<h1>Signed out</h1>
<p id="signed-out">You are signed out of this site, and ZeroID has forgotten this site's tokens for you.</p>
<p class="hint">Nothing of this visit is kept here. Sign in again any time.</p>
<p><a class="button" href="/login">Sign in again</a> <a class="button secondary" href="/">Home</a></p>`);

/** A sign-in that did not complete: the OAuth error code as the site got it, and what it means. */
export const notSignedInPage = (code, meaning) =>
  page(`<h1>Not signed in</h1>
<p id="not-signed-in" class="error">Not signed in: ${escape(code)}</p>
<p class="hint">${escape(meaning)}</p>
<p><a class="button" href="/login">Try again</a> <a class="button secondary" href="/">Home</a></p>`);

/** A problem with the setup, in words a developer can act on. */
export function problem({ title, detail, command }) {
  return `<div class="problem" role="alert" id="setup-problem"><p><strong>${escape(title)}</strong></p><p>${escape(detail)}</p>${
    command ? `<pre><code>${escape(command)}</code></pre>` : ''
  }</div><p><a class="button secondary" href="/">Check again</a></p>`;
}

export const notFoundPage = () => page('<h1>Not found</h1><p><a href="/">Home</a></p>');
