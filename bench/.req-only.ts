import { requestCosts } from './requests';
await requestCosts();
process.exit(0);
