import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mountLookup, type MountEntry } from './job.js';

const path = fc.array(fc.constantFrom('/', 'a', 'b', 'ab'), { maxLength: 6 }).map((xs) => xs.join(''));

test('mountLookup: the first mount whose path prefixes the name, whatever the names asked before', () => {
  fc.assert(
    fc.property(fc.array(path, { maxLength: 8 }), fc.array(path, { maxLength: 40 }), (paths, names) => {
      const mounts: MountEntry[] = paths.map((p, i) => ({ path: p, fsType: `fs${i}` }));
      const lookup = mountLookup(mounts);
      // each name twice: the second answer comes from the per-directory cache
      for (const name of [...names, ...names]) assert.equal(lookup(name), mounts.find((m) => name.startsWith(m.path)) ?? null, name);
    }),
    { numRuns: 2000 },
  );
});

test('mountLookup: a mount reaching past a directory decides only the names it prefixes', () => {
  const mounts: MountEntry[] = [
    { path: '/scratch/ab', fsType: 'lustre' },
    { path: '/scratch', fsType: 'nfs' },
    { path: '/', fsType: 'rootfs' },
  ];
  const lookup = mountLookup(mounts);
  assert.equal(lookup('/scratch/abc')?.fsType, 'lustre');
  assert.equal(lookup('/scratch/x')?.fsType, 'nfs');
  assert.equal(lookup('/scratch/ab/y')?.fsType, 'lustre');
  assert.equal(lookup('/home/z')?.fsType, 'rootfs');
  assert.equal(lookup('rel'), null);
});
