import { main } from './index.js';

await main(process.argv);
