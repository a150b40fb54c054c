import { defineConfig } from 'vite';

// Relative asset URLs, so the same build works at `/` (the browser test's server) and under
// `/playground/` (`listkit serve`). Everything is bundled: the page loads nothing from elsewhere.
export default defineConfig({
  base: './',
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/check-size.mjs prints the sizes and enforces the budget after the build.
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1000,
  },
});
