// Runs before the app's bundle (a plain, render-blocking script) so a reload never flashes the wrong theme.
// It is an external file because the Content-Security-Policy allows scripts from 'self' only.
// Mirrors src/lib/theme-storage.ts: only a stored 'dark' means dark.
(function () {
  try {
    if (localStorage.getItem('theme') === 'dark') document.documentElement.classList.add('dark');
  } catch {
    // Storage blocked: stay light.
  }
})();
