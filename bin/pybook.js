#!/usr/bin/env node
// The executable only loads the compiled CLI (npm's `prepare` compiles src/ to dist/).
import { main } from '../dist/cli/index.js';

main(process.argv);
