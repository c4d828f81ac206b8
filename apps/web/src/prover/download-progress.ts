import type { Progress } from '../shared/progress.ts';
import type { DownloadProgress } from './artifact-cache.ts';

/**
 * The progress line's bar for a download prepared ahead (decision 043): it may be done or half done
 * when the person presses the button, so the bar appears only while bytes remain, and stays until
 * the next stage replaces it.
 */
export function downloadProgress(progress: (p: Progress) => void): DownloadProgress {
  let downloading = false;
  return (loaded, total) => {
    if (!downloading && loaded >= total) return;
    downloading = true;
    progress({ stage: 'downloading', loaded, total });
  };
}
