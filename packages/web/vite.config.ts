import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The contract is bundled from source so the console never needs a prior `tsc -b`. */
const contractSource = fileURLToPath(new URL('../contract/src/index.ts', import.meta.url));

const API_SERVER = 'http://127.0.0.1:8080';
const PROXIED = ['/api', '/apis', '/oidc', '/docs', '/healthz', '/readyz', '/metrics'];

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@orrery/contract': contractSource } },
  server: {
    proxy: Object.fromEntries(PROXIED.map((prefix) => [prefix, { target: API_SERVER }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The manifest lets scripts measure exactly what the first page load downloads.
    manifest: true,
    rollupOptions: {
      treeshake: {
        // The contract's schemas are pure declarations; without this hint importing one helper
        // (e.g. toCamel) would pull every schema, and zod with them, into the first download.
        moduleSideEffects: (id: string) =>
          !/[\\/](contract[\\/]src|node_modules[\\/]zod)[\\/]/.test(id),
      },
    },
  },
});
