import { createBrowserRouter } from 'react-router';
import { WelcomePage } from '../features/welcome/welcome-page.tsx';
import { NotFoundPage, RouteErrorPage } from '../features/not-found/not-found-page.tsx';
import { startSignIn } from '../features/sign-in/sign-in-details.ts';
import { Layout } from './layout.tsx';
import { PageLoading } from './page-loading.tsx';

/** The specification's routes. The welcome page is in the first bundle; every other screen loads on demand. */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: (
      <Layout>
        <RouteErrorPage />
      </Layout>
    ),
    // A first visit straight to a lazy screen renders this until its code has loaded.
    hydrateFallbackElement: (
      <Layout>
        <PageLoading />
      </Layout>
    ),
    children: [
      { index: true, element: <WelcomePage /> },
      { path: 'register', lazy: async () => ({ Component: (await import('../features/register/register-page.tsx')).RegisterPage }) },
      { path: 'user-verification', lazy: async () => ({ Component: (await import('../features/verify/verify-page.tsx')).VerifyPage }) },
      { path: 'generate-qr', lazy: async () => ({ Component: (await import('../features/qr/qr-page.tsx')).QrPage }) },
      { path: 'invalid-did', lazy: async () => ({ Component: (await import('../features/outcome/invalid-did-page.tsx')).InvalidDidPage }) },
      {
        path: 'user-authorised',
        lazy: async () => ({ Component: (await import('../features/outcome/user-authorised-page.tsx')).UserAuthorisedPage }),
      },
      // Decision 022: not in the specification; reached from the welcome screen's footer link.
      { path: 'erase', lazy: async () => ({ Component: (await import('../features/erase/erase-page.tsx')).ErasePage }) },
      // Sign in with ZeroID (decision 023): the authorization request's verification screen.
      // Its details and prover worker start while the screen's code loads, not after it renders (decision 028).
      {
        path: 'signin/:uid',
        loader: ({ params }) => {
          startSignIn(params.uid ?? '');
          return null;
        },
        lazy: async () => ({ Component: (await import('../features/sign-in/sign-in-page.tsx')).SignInPage }),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
