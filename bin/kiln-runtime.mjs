#!/usr/bin/env node
import '../build/kiln-runtime.mjs';
