#!/usr/bin/env node
import { main } from "../dist/temporalc.js";

await main(process.argv);
