#!/usr/bin/env node
import { main } from "../dist/node/cli.js";

await main(process.argv.slice(2));
