#!/usr/bin/env node
// The executable only loads the compiled CLI: npm's `prepare` compiles src/ to dist/ and bundles
// that into dist/bundle/ (see tools/bundle-cli.mjs).
// Server rendering uses React's production build unless told otherwise (the development build
// is several times slower and only adds warnings meant for component authors).
process.env.NODE_ENV ??= 'production';
const { main } = await import('../dist/bundle/cli.js');

await main(process.argv);
