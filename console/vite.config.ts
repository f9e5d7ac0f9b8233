// Builds the console into console/dist for the server to serve under /app/ (hashed assets,
// precompressed), and serves it with hot reload in development (`npm run dev:console`), sending
// API requests to a running eventdeck server.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.js';

const API_TARGET = process.env.EVENTDECK_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react(), precompress()],
  resolve: {
    // The APL syntax layer is shared with the server, so the editor and the server never disagree.
    alias: { '@server': fileURLToPath(new URL('../src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    assetsDir: 'assets',
  },
  server: {
    proxy: Object.fromEntries(['/v1', '/v2', '/api', '/graphql', '/auth', '/healthz'].map((prefix) => [prefix, { target: API_TARGET, changeOrigin: false }])),
  },
});
