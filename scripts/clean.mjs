#!/usr/bin/env node
// Removes dist/ before a build, so that files of deleted sources (and their tests) never linger in the build.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
