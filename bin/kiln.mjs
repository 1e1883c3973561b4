#!/usr/bin/env node
import '../build/kiln.mjs';
