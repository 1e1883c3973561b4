#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=50
// A young generation of at most 8 MB semi-spaces (V8's default grows them to 16 MB): at 1,000
// tables x 20 roles the server's RSS after queries across every role stays near 183 MB instead of
// 232 MB. 2 MB kept the RSS as low but made eight times the scavenges of the default under load
// (Q1: 286 against 36 per 20,000 requests; 8 MB: 73), which cost 20-180 us of GC per request
// (issue 19). The old generation may grow by half its live size between full collections: V8
// picks a factor of up to 4 from its GC and mutator speeds, so the same queries across every role
// of a 1,000 x 20 bundle left 94-168 MB of heap (RSS 188-236 MB) from run to run; with 1.5, 94-101
// MB (RSS 160-168 MB). On the bench (Q1 and Q3, 16 connections, about 90,000 requests) it made 3
// full collections instead of 1 (13 ms of GC in all) and no difference in throughput. Run through
// `node` directly, pass the flags yourself.
import '../build/kiln-runtime.mjs';
