import assert from 'node:assert/strict';
import { test } from 'node:test';
import { versionLine } from '../src/runtime-version.ts';

test('dotnet: the newest ASP.NET Core shared runtime, not the SDK and without its path', () => {
  const listed = [
    'Microsoft.AspNetCore.App 8.0.22 [/usr/share/dotnet/shared/Microsoft.AspNetCore.App]',
    'Microsoft.AspNetCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.AspNetCore.App]',
    'Microsoft.NETCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.NETCore.App]',
  ].join('\n');
  assert.equal(versionLine('dotnet', listed), 'Microsoft.AspNetCore.App 10.0.12');
});

test('other runtimes: the first line', () => {
  assert.equal(versionLine('node', 'v24.21.0\n'), 'v24.21.0');
  assert.equal(versionLine('java', 'openjdk version "17.0.13" 2024-10-15\nOpenJDK Runtime Environment'), 'openjdk version "17.0.13" 2024-10-15');
  assert.equal(versionLine('dotnet', ''), 'unknown');
});
