#!/usr/bin/env node
// The `listkit` bin. A committed file, so that pnpm links it at install time, before a build
// has made dist/bin.js.
import '../dist/bin.js';
