#!/usr/bin/env -S node --max-semi-space-size=2
// A young generation of 2 MB semi-spaces (V8's default grows them to 16 MB): at 1,000 tables x 20
// roles the server's RSS after queries across every role is 188-197 MB instead of 239-247 MB, at
// no measured cost in time (issue 19). Run through `node` directly, pass the flag yourself.
import '../build/kiln-runtime.mjs';
