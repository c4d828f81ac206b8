import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { prepareAfterFirstPaint } from './prepare-after-first-paint.ts';
import { router } from './router.tsx';
import './styles.css';
import { timelineMark } from '../shared/timeline-mark.ts';

timelineMark('app-entry');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);

prepareAfterFirstPaint();
