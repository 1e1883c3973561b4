#!/usr/bin/env -S node --max-semi-space-size=8
// A young generation of at most 8 MB semi-spaces (V8's default grows them to 16 MB): at 1,000
// tables x 20 roles the server's RSS after queries across every role stays near 183 MB instead of
// 232 MB. 2 MB kept the RSS as low but made eight times the scavenges of the default under load
// (Q1: 286 against 36 per 20,000 requests; 8 MB: 73), which cost 20-180 us of GC per request
// (issue 19). Run through `node` directly, pass the flag yourself.
import '../build/kiln-runtime.mjs';
