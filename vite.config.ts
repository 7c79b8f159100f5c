import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * The admin dashboard (dashboard/): a Preact single-page app served by the service at
 * /dashboard (src/modules/dashboard/serve-dashboard.ts) under a strict content security
 * policy, so the build must emit only external script and style files, never inline ones.
 *
 *   npm run build  -> vite build --outDir dist/dashboard        (next to dist/main.js)
 *   npm test       -> vite build --outDir build/src/dashboard   (next to the compiled tests' app)
 */
const repoRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * Vite resolves `build.outDir` against `root` (dashboard/); the scripts name it from the
 * repository root, so a relative --outDir is resolved against the working directory instead.
 */
function outDirFromWorkingDirectory(): Plugin {
  return {
    name: 'out-dir-from-working-directory',
    config(config) {
      const outDir = config.build?.outDir;
      if (outDir && !isAbsolute(outDir)) return { build: { outDir: resolve(process.cwd(), outDir) } };
      return undefined;
    },
  };
}

export default defineConfig({
  root: resolve(repoRoot, 'dashboard'),
  base: '/dashboard/',
  publicDir: resolve(repoRoot, 'dashboard/public'),
  plugins: [outDirFromWorkingDirectory()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: {
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
  },
  // `npm run dev:dashboard`: the dashboard with hot reload, talking to a service on :3000.
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: resolve(repoRoot, 'dist/dashboard'),
    // No inline anything: the CSP forbids inline scripts and styles.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    cssCodeSplit: false,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
