#!/usr/bin/env node
// The package's bin, built as dist/cli.js (scripts/bundle.mjs): the command's code, compiled with
// its code cache. Its `import()` is this module's, so that the command finds the packages and chunks
// it loads at their first use from dist/, as a module there would.
import { runCommand } from './command-script.js';

runCommand(import.meta.url, (specifier) => import(specifier));
